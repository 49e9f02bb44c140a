-- "Today" for a competition's start date is the creator's calendar day in their profile time zone, as the
-- creation form shows it (it used to be UTC's day, so a player west of UTC late in the evening was told
-- their own today was in the past). private.local_today() is that day; the rest of
-- private.create_competition is unchanged from 20261122400000.

create function private.local_today(p_user uuid) returns date
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select (public.app_now() at time zone coalesce(
           (select p.time_zone from public.profiles p
             where p.id = p_user
               and exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p.time_zone)),
           'UTC'))::date
$$;

revoke all on function private.local_today(uuid) from public, anon, authenticated;

create or replace function private.create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_visibility text, p_prize text, p_created_by uuid
) returns table (id uuid, registration_key text)
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  v_name text := pg_catalog.btrim(coalesce(p_name, ''));
  v_type text := pg_catalog.btrim(p_type);
  v_league text := pg_catalog.btrim(p_league);
  v_season text := pg_catalog.btrim(p_season);
  v_prize text := nullif(pg_catalog.btrim(coalesce(p_prize, '')), '');
  v_total integer := 38;  -- competitions.total_match_days default
  v_deadline timestamptz;
  v_constraint text;
begin
  if v_name = '' or coalesce(v_type, '') = '' or coalesce(v_league, '') = '' or coalesce(v_season, '') = ''
     or p_start_date is null or p_start_match_day is null then
    raise exception using errcode = 'P0001', message = 'Please fill in all required fields.';
  end if;
  if v_type not in ('knockout', 'season') then
    raise exception using errcode = 'P0001', message = 'Type must be knockout or season.';
  end if;
  if v_league not in ('Premier League', 'La Liga', 'Serie A', 'Bundesliga', 'Ligue 1', 'Championship', 'MLS') then
    raise exception using errcode = 'P0001', message = 'Please choose a league from the list.';
  end if;
  if v_season not in ('2025/26', '2025', '2024/25') then
    raise exception using errcode = 'P0001', message = 'Please choose a season from the list.';
  end if;
  if pg_catalog.char_length(v_name) > 100 then
    raise exception using errcode = 'P0001', message = 'Competition name must be at most 100 characters.';
  end if;
  if pg_catalog.char_length(v_prize) > 500 then
    raise exception using errcode = 'P0001', message = 'Prize must be at most 500 characters.';
  end if;
  if p_start_match_day < 1 or p_start_match_day > v_total then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a positive whole number.';
  end if;
  if p_start_date < private.local_today(p_created_by) then
    raise exception using errcode = 'P0001', message = 'Start date must be today or a future date.';
  end if;
  v_deadline := public.matchday_deadline(v_league, v_season, p_start_match_day);
  if v_deadline is null or v_deadline <= public.app_now() then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a match day that has not started yet.';
  end if;
  if exists (select 1 from public.competitions c
              where pg_catalog.lower(pg_catalog.btrim(c.name)) = pg_catalog.lower(v_name) and c.type = v_type) then
    raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
  end if;

  begin
    return query
      insert into public.competitions as c
        (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day,
         status, registration_status, visibility, prize, created_by)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, 'Bragging Rights!'), p_created_by)
      returning c.id, c.registration_key;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'competitions_name_type_key' then
      raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
    end if;
    raise;
  end;
end
$$;

