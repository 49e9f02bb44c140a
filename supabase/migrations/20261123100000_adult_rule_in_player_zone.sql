-- The 18+ rule has one home: this trigger. "Today" is the player's calendar day in the time zone saved with the
-- profile (the zone the form shows), not UTC's day: the form and the database used to disagree, so a player
-- turning 18 today east of UTC was accepted by the form and refused by the trigger (a 500). The page no longer
-- recomputes the age; it shows this trigger's message (constraint profiles_minimum_age) on the date field.

-- The calendar day of the request clock in a time zone; UTC for an unknown or empty zone.
create function private.today_in_zone(p_time_zone text) returns date
  language sql
  stable
  set search_path = ''
as $$
  select (public.app_now() at time zone coalesce(
           (select z.name from pg_catalog.pg_timezone_names z where z.name = p_time_zone limit 1), 'UTC'))::date
$$;

revoke all on function private.today_in_zone(text) from public, anon, authenticated;

create or replace function private.local_today(p_user uuid) returns date
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select private.today_in_zone((select p.time_zone from public.profiles p where p.id = p_user))
$$;

create or replace function private.profiles_check_age() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.date_of_birth > private.today_in_zone(new.time_zone) - interval '18 years' then
    raise exception using
      errcode = 'check_violation',
      constraint = 'profiles_minimum_age',
      message = 'You must be at least 18 years old to join FootyCoach.';
  end if;
  return new;
end
$$;

-- The zone decides the day, so changing it re-checks the rule too.
drop trigger profiles_check_age on public.profiles;
create trigger profiles_check_age
  before insert or update of date_of_birth, time_zone on public.profiles
  for each row execute function private.profiles_check_age();
