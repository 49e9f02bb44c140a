-- "Is this match day's selection closed?" in one place for the pages: its deadline (public.matchday_deadline,
-- first kickoff minus one hour) has passed on the request clock. False while the match day has no fixtures
-- (deadline TBA). The pages used to compare the deadline with the clock in TypeScript, in three places.
create function public.matchday_closed(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select coalesce(public.matchday_deadline(p_league, p_season, p_match_day) <= public.app_now(), false)
$$;

revoke all on function public.matchday_closed(text, text, integer) from public, anon;
grant execute on function public.matchday_closed(text, text, integer) to authenticated, service_role;
