-- "Is registration open?" has one home, and the pages read it: public.registration_state(competition) answers
-- 'open' | 'closed' | 'completed' as the rule stands at the request (app_now()), not as the stored
-- competitions.registration_status last said. The stored status only changes when close_due_registrations or
-- match-day processing runs, so the lists and the competition page used to offer Register after the deadline
-- and join_competition then refused it.
--
-- open      = stored 'open', competition active, not Scout, and the start match day's deadline has not passed
--             (a start match day without fixtures does not close it: decision 005). This is what
--             join_competition and unregister_competition check (private.registration_is_open).
-- completed = stored 'completed' (the competition ended).
-- closed    = everything else.
--
-- Changes (definitions copied from supabase/schema.sql):
-- * new private.registration_state (security definer, like registration_is_open) and its public wrapper;
-- * private.registration_is_open (20261122200200) is now registration_state = 'open';
-- * private.close_due_registrations (20261122300100): public.matchday_deadline_passed instead of comparing the
--   deadline inline (20261123300000).

create function private.registration_state(p_competition_id uuid) returns text
  language sql stable
  security definer
  set search_path = ''
as $$
  select case
           when c.registration_status = 'open'
                and c.status = 'active'
                and c.type <> 'scout'
                and not public.matchday_deadline_passed(c.league, c.season, c.start_match_day) then 'open'
           when c.registration_status = 'completed' then 'completed'
           else 'closed'
         end
    from public.competitions c
   where c.id = p_competition_id
$$;

create function public.registration_state(p_competition_id uuid) returns text
  language sql stable
  set search_path = ''
as $$
  select private.registration_state(p_competition_id)
$$;

comment on function public.registration_state(uuid) is
  'Registration of the competition now: open | closed | completed (null for an unknown id). What the pages show and what join/unregister check; the stored registration_status may lag behind it.';

revoke all on function private.registration_state(uuid) from public, anon;
grant execute on function private.registration_state(uuid) to authenticated, service_role;
revoke all on function public.registration_state(uuid) from public, anon;
grant execute on function public.registration_state(uuid) to authenticated, service_role;

create or replace function private.registration_is_open(p_competition_id uuid) returns boolean
  language sql stable
  security definer
  set search_path = ''
as $$
  select coalesce(private.registration_state(p_competition_id) = 'open', false)
$$;

create or replace function private.close_due_registrations() returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_n integer;
begin
  -- lock order: competition rows in id order
  perform 1 from public.competitions c
   where c.registration_status = 'open'
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.matchday_deadline_passed(c.league, c.season, c.start_match_day)
   order by c.id
     for no key update;
  update public.competitions c
     set registration_status = 'closed'
   where c.registration_status = 'open'
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.matchday_deadline_passed(c.league, c.season, c.start_match_day);
  get diagnostics v_n = row_count;
  return v_n;
end
$$;
