-- A league's number of match days from the data feed (decision 027). Every competition had 38 match days
-- (public.default_total_match_days): a season competition on the Bundesliga or Ligue 1 (18 clubs, 34 match days)
-- would wait for a match day 35 that never comes, one on the Championship (24 clubs, 46) would end 8 match days
-- early. The feed lists the whole season: private.sync_feed_league (migration 20261128200002) stores its number of
-- match days in feed_leagues.match_days and sets the league's active competitions of that season to it; a
-- competition created on it later takes it from this trigger.

alter table public.feed_leagues
  add column match_days integer,
  add constraint feed_leagues_match_days_range check (match_days between 1 and 60);

create function private.competitions_take_feed_match_days() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_days integer;
begin
  select l.match_days into v_days
    from public.feed_leagues l
   where l.league = new.league and l.season = new.season;
  if v_days is not null and new.start_match_day <= v_days and new.current_match_day <= v_days then
    new.total_match_days := v_days;
  end if;
  return new;
end
$$;
revoke all on function private.competitions_take_feed_match_days() from public, anon, authenticated;

create trigger competitions_take_feed_match_days
  before insert on public.competitions
  for each row execute function private.competitions_take_feed_match_days();
