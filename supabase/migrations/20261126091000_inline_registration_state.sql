-- Registration state per listed competition without a function call per row (decision 023, addendum 2).
-- The dashboard's Upcoming Competitions and the Competitions list asked public.registration_state(c.id) for every
-- open competition: a wrapper around a security-definer function that looks the row up again, each level with its
-- own SET search_path (a configuration change on every call, and no inlining). On the benchmark's 200 competitions
-- that query took 38 ms of database time (6 ms after this).
--
-- 1. The rule gets one home that takes the row's columns: public.registration_state_of, without a SET clause, so
--    the planner inlines it into the listing query. private.registration_state(id) applies it to the looked-up row.
-- 2. The invoker-rights SQL helpers it calls lose their SET clauses (every name in them is schema-qualified; they
--    run with the caller's rights, so a search_path gives no one more rights): app_now, matchday_deadline,
--    matchday_deadline_passed, selection_open, matchday_closed, and the public.registration_state wrapper. The
--    security-definer functions keep theirs (tests/db/schema.test.ts checks it).

create function public.registration_state_of(p_registration_status text, p_status text, p_type text, p_league text,
                                              p_season text, p_start_match_day integer) returns text
  language sql stable
as $$
  select case
           when p_registration_status = 'open'
                and p_status = 'active'
                and p_type <> 'scout'
                and not public.matchday_deadline_passed(p_league, p_season, p_start_match_day) then 'open'
           when p_registration_status = 'completed' then 'completed'
           else 'closed'
         end
$$;

comment on function public.registration_state_of(text, text, text, text, text, integer) is
  'Registration of a competition now, from its row''s registration_status, status, type, league, season and start_match_day: open | closed | completed. The one home of the rule; inlined into listing queries.';

revoke all on function public.registration_state_of(text, text, text, text, text, integer) from public, anon;
grant execute on function public.registration_state_of(text, text, text, text, text, integer) to authenticated, service_role;

create or replace function private.registration_state(p_competition_id uuid) returns text
  language sql stable
  security definer
  set search_path = ''
as $$
  select public.registration_state_of(c.registration_status, c.status, c.type, c.league, c.season, c.start_match_day)
    from public.competitions c
   where c.id = p_competition_id
$$;

alter function public.app_now() reset search_path;
alter function public.matchday_deadline(text, text, integer) reset search_path;
alter function public.matchday_deadline_passed(text, text, integer) reset search_path;
alter function public.selection_open(text, text, integer) reset search_path;
alter function public.matchday_closed(text, text, integer) reset search_path;
alter function public.registration_state(uuid) reset search_path;
