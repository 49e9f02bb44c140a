-- Knockout and season standings: the stored season scoring on each membership, the rank, the leaderboard sort
-- key, the triggers that keep them exact, the knockout status labels, the membership and knockout views and the
-- leaderboard pages.
-- Rules: docs/game-rules.md "Knockout" (leaderboard order), "Season" (scoring, rank), "Hidden picks".
-- Decisions: 005-game-rules-in-sql.md ("Standings are stored, picks stay hidden"), 011 (knockout_status).
--
-- Season scoring (W/D/L, goals for/against, points; W/D/L for every competition type) is STORED on the
-- membership row (user_selections.wins .. points, generated goal_difference; columns in
-- 30_competitions_and_membership.sql), and the rank in public.membership_ranks. Why stored: standings must be
-- readable by every signed-in player, while the picks they come from are hidden by row-level security (own
-- picks, or revealed to members after the deadline); aggregates of complete fixtures reveal no pending pick, so
-- they live on the membership row (readable by all), and the views need neither definer rights nor a scan of
-- every pick. A rank computed per row at read time is quadratic in the size of the competition, and a separate
-- table keeps re-ranking from locking membership rows (which save_team_selection locks).
--
-- Triggers keep both exact: any change of a pick or of a fixture's result recomputes the affected memberships
-- from scratch (idempotent; a corrected result re-scores; a postponed fixture scores nothing), and a competition
-- is re-ranked whenever a member's stats change or a member joins or leaves. They are statement-level (transition
-- tables), so bulk writes (the seed, a CSV of results) refresh and re-rank each competition once. Lock order:
-- 30_competitions_and_membership.sql (competition first).

-- ---------------------------------------------------------------------------------------------------------
-- membership_ranks
-- ---------------------------------------------------------------------------------------------------------

-- Rank by (points, goal difference, goals for, wins) desc; equal on all four share a rank: 1, 1, 3.
create table public.membership_ranks (
  competition_id uuid not null,
  user_id uuid not null,
  rank integer not null,
  primary key (competition_id, user_id),
  constraint membership_ranks_membership_fkey foreign key (user_id, competition_id)
    references public.user_selections (user_id, competition_id) on delete cascade,
  constraint membership_ranks_rank_check check (rank >= 1)
);

comment on table public.membership_ranks is
  'Rank of each membership in its competition by (points, goal difference, goals for, wins); kept by triggers.';

alter table public.membership_ranks enable row level security;

create policy membership_ranks_select_authenticated on public.membership_ranks
  for select to authenticated
  using (true);

revoke all on table public.membership_ranks from public, anon, authenticated;
grant select on table public.membership_ranks to authenticated;
grant select on table public.membership_ranks to service_role;

-- Autovacuum sooner on the two tables that match-day processing rewrites in bulk. Entering a match day's results
-- updates the stored stats of most members (user_selections: non-HOT updates, the leaderboard indexes change)
-- and re-writes most ranks. Until vacuum has run, a deep leaderboard page (an ordered index scan with an offset)
-- also walks the dead index entries and checks the heap for visibility: in scripts/bench-results.ts page 5,000
-- of a 100,000-member season leaderboard took ~110 ms right after processing and ~5 ms after VACUUM. With the
-- default scale factor (20% of the table) a large table waits for many such rounds; 2% (plus the base
-- threshold) vacuums these two tables within about a minute of a results round.
alter table public.user_selections set (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);

alter table public.membership_ranks set (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);

-- ---------------------------------------------------------------------------------------------------------
-- Scoring and ranking
-- ---------------------------------------------------------------------------------------------------------

-- A pick's points: the organiser's points for a win, a draw and a loss (competitions.win_points / draw_points /
-- loss_points: 3, 1 and 0 unless chosen otherwise), doubled on the member's joker match day; null for anything
-- but a win, a draw or a loss (no pick, postponed, not played). The one home of the season's points: the stored
-- standings (refresh_memberships) and "if it ended now" (private.if_it_ended_now, private.ensure_live_table) both
-- read it. No SET clause, so the planner inlines it.
create function private.pick_points(p_outcome text, p_win integer, p_draw integer, p_loss integer, p_joker boolean)
returns integer
  language sql immutable
as $$
  select case p_outcome when 'win' then p_win when 'draw' then p_draw when 'loss' then p_loss end
         * case when p_joker then 2 else 1 end
$$;
revoke all on function private.pick_points(text, integer, integer, integer, boolean) from public, anon;
grant execute on function private.pick_points(text, integer, integer, integer, boolean) to authenticated, service_role;

-- Re-rank every member of one competition; only the ranks that differ are written. Callers hold the
-- competition lock.
create function private.rerank_competition(p_competition_id uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.lock_competition(p_competition_id);
  insert into public.membership_ranks as r (competition_id, user_id, rank)
  select n.competition_id, n.user_id, n.rank
    from (
      select us.competition_id, us.user_id,
             (pg_catalog.rank() over (
                order by us.points desc, us.goal_difference desc, us.goals_for desc, us.wins desc))::integer as rank
        from public.user_selections us
       where us.competition_id = p_competition_id
    ) n
    left join public.membership_ranks o on o.competition_id = n.competition_id and o.user_id = n.user_id
   where o.rank is distinct from n.rank
  on conflict (competition_id, user_id) do update
    set rank = excluded.rank
    where r.rank is distinct from excluded.rank;
end
$$;

-- Refresh the stats of the given memberships (parallel arrays) and re-rank each competition whose standings
-- changed; competitions are locked in id order. Set-based: a result of a 100,000-member competition touches the
-- stats of the ~10,000 members who picked that fixture; one UPDATE recomputes them all from their picks (points
-- by the competition's rules, doubled on the member's joker match day: private.pick_points; goals are the picked
-- team's; only complete fixtures count).
create function private.refresh_memberships(p_user_ids uuid[], p_competition_ids uuid[]) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_competition uuid;
  v_changed uuid[];
begin
  -- Competitions first, in id order (the standings lock), then memberships.
  for v_competition in
    select distinct c from pg_catalog.unnest(p_competition_ids) as c where c is not null order by c
  loop
    perform private.lock_competition(v_competition);
  end loop;

  with pairs as (
    select distinct x.u as user_id, x.c as competition_id
      from rows from (pg_catalog.unnest(p_user_ids), pg_catalog.unnest(p_competition_ids)) as x (u, c)
     where x.u is not null and x.c is not null
  ),
  -- One left join from the pairs to their complete picks (a second reference to pairs would be joined on a
  -- 100-row estimate of unnest and turn into a quadratic nested loop).
  stats as (
    select p.user_id, p.competition_id,
           count(g.gf) filter (where g.gf > g.ga)::integer as wins,
           count(g.gf) filter (where g.gf = g.ga)::integer as draws,
           count(g.gf) filter (where g.gf < g.ga)::integer as losses,
           coalesce(sum(g.gf), 0)::integer as goals_for,
           coalesce(sum(g.ga), 0)::integer as goals_against,
           coalesce(sum(private.pick_points(g.outcome, c.win_points, c.draw_points, c.loss_points,
                                            c.joker and j.match_day = ts.match_day)), 0)::integer as points
      from pairs p
      join public.competitions c on c.id = p.competition_id
      left join public.season_jokers j on j.user_id = p.user_id and j.competition_id = p.competition_id
      left join public.team_selections ts on ts.user_id = p.user_id and ts.competition_id = p.competition_id
      left join public.fixtures f on f.id = ts.fixture_id and f.status = 'complete'
      cross join lateral (
        select case when f.id is null then null
                    when ts.selected_team = f.home_team then f.home_score else f.away_score end as gf,
               case when f.id is null then null
                    when ts.selected_team = f.home_team then f.away_score else f.home_score end as ga
      ) g0
      cross join lateral (
        select g0.gf, g0.ga,
               case when g0.gf > g0.ga then 'win' when g0.gf = g0.ga then 'draw' when g0.gf < g0.ga then 'loss' end
                 as outcome
      ) g
     group by p.user_id, p.competition_id
  ),
  changed as (
    update public.user_selections us
       set wins = s.wins, draws = s.draws, losses = s.losses,
           goals_for = s.goals_for, goals_against = s.goals_against, points = s.points
      from stats s
     where us.user_id = s.user_id and us.competition_id = s.competition_id
       and (us.wins, us.draws, us.losses, us.goals_for, us.goals_against, us.points)
           is distinct from (s.wins, s.draws, s.losses, s.goals_for, s.goals_against, s.points)
    returning us.competition_id
  )
  select pg_catalog.array_agg(distinct c.competition_id order by c.competition_id) into v_changed from changed c;

  if v_changed is not null then
    foreach v_competition in array v_changed loop
      perform private.rerank_competition(v_competition);
    end loop;
  end if;
end
$$;

revoke all on function private.rerank_competition(uuid) from public;
revoke all on function private.refresh_memberships(uuid[], uuid[]) from public;

-- Picks changed (statement level, so bulk writes refresh and re-rank each competition once). Only picks on a
-- complete fixture score, so only those can change the standings: a pick or plan before its match (also the
-- 33,000 auto-picks of a match day's deadline) refreshes nothing.
create function private.team_selections_refresh_stats() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_users uuid[];
  v_competitions uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(n.user_id), array_agg(n.competition_id) into v_users, v_competitions
      from new_rows n join public.fixtures f on f.id = n.fixture_id and f.status = 'complete';
  elsif tg_op = 'UPDATE' then
    select array_agg(x.user_id), array_agg(x.competition_id) into v_users, v_competitions
      from (select n.user_id, n.competition_id from new_rows n
              join public.fixtures f on f.id = n.fixture_id and f.status = 'complete'
            union
            select o.user_id, o.competition_id from old_rows o
              join public.fixtures f on f.id = o.fixture_id and f.status = 'complete') x;
  else
    select array_agg(o.user_id), array_agg(o.competition_id) into v_users, v_competitions
      from old_rows o join public.fixtures f on f.id = o.fixture_id and f.status = 'complete';
  end if;
  if v_users is not null then
    perform private.refresh_memberships(v_users, v_competitions);
  end if;
  return null;
end
$$;

create trigger team_selections_refresh_stats_insert
  after insert on public.team_selections
  referencing new table as new_rows
  for each statement execute function private.team_selections_refresh_stats();

create trigger team_selections_refresh_stats_update
  after update on public.team_selections
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.team_selections_refresh_stats();

create trigger team_selections_refresh_stats_delete
  after delete on public.team_selections
  referencing old table as old_rows
  for each statement execute function private.team_selections_refresh_stats();

-- A joker played, moved or taken back: that member's points follow (statement level, as for picks).
create function private.season_jokers_refresh_stats() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_users uuid[];
  v_competitions uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(n.user_id), array_agg(n.competition_id) into v_users, v_competitions from new_rows n;
  elsif tg_op = 'UPDATE' then
    select array_agg(n.user_id), array_agg(n.competition_id) into v_users, v_competitions from new_rows n;
  else
    select array_agg(o.user_id), array_agg(o.competition_id) into v_users, v_competitions from old_rows o;
  end if;
  if v_users is not null then
    perform private.refresh_memberships(v_users, v_competitions);
  end if;
  return null;
end
$$;

create trigger season_jokers_refresh_stats_insert
  after insert on public.season_jokers
  referencing new table as new_rows
  for each statement execute function private.season_jokers_refresh_stats();

create trigger season_jokers_refresh_stats_update
  after update on public.season_jokers
  referencing new table as new_rows
  for each statement execute function private.season_jokers_refresh_stats();

create trigger season_jokers_refresh_stats_delete
  after delete on public.season_jokers
  referencing old table as old_rows
  for each statement execute function private.season_jokers_refresh_stats();

revoke all on function private.season_jokers_refresh_stats() from public;

-- Fixture results changed (statement level, so a bulk update locks the affected competitions once, in id order):
-- refresh every membership that picked a changed fixture, then re-rank each affected competition once.
create function private.fixtures_refresh_stats() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_users uuid[];
  v_competitions uuid[];
begin
  select array_agg(ts.user_id), array_agg(ts.competition_id) into v_users, v_competitions
    from new_rows n
    join old_rows o on o.id = n.id
    join public.team_selections ts on ts.fixture_id = n.id
   where (n.status, n.home_score, n.away_score, n.home_team, n.away_team)
         is distinct from (o.status, o.home_score, o.away_score, o.home_team, o.away_team);
  if v_users is not null then
    perform private.refresh_memberships(v_users, v_competitions);
  end if;
  return null;
end
$$;

create trigger fixtures_refresh_stats
  after update on public.fixtures
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.fixtures_refresh_stats();

-- Members joined or left: everyone's rank may shift (statement level: once per competition).
create function private.user_selections_rerank() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_competition uuid;
begin
  if tg_op = 'DELETE' then
    for v_competition in select distinct o.competition_id from old_rows o order by 1 loop
      perform private.rerank_competition(v_competition);
    end loop;
  else
    for v_competition in select distinct n.competition_id from new_rows n order by 1 loop
      perform private.rerank_competition(v_competition);
    end loop;
  end if;
  return null;
end
$$;

create trigger user_selections_rerank_insert
  after insert on public.user_selections
  referencing new table as new_rows
  for each statement execute function private.user_selections_rerank();

create trigger user_selections_rerank_delete
  after delete on public.user_selections
  referencing old table as old_rows
  for each statement execute function private.user_selections_rerank();

revoke all on function private.team_selections_refresh_stats() from public;
revoke all on function private.fixtures_refresh_stats() from public;
revoke all on function private.user_selections_rerank() from public;

-- ---------------------------------------------------------------------------------------------------------
-- Leaderboard order: user_selections.sort_name and the two leaderboard indexes
-- ---------------------------------------------------------------------------------------------------------

-- sort_name = lower(username) of the member, kept by triggers (set on insert, followed when a player renames).
-- With it, both leaderboard orders are plain index orders on user_selections, so a page of a 100,000-member
-- competition is an ordered index scan (with an offset) rather than a sort of the whole competition joined to
-- player_names. Usernames are unique case-insensitively (profiles_username_lower_key), so (sort_name) alone
-- already orders members totally within a competition; user_id is the last key only for safety.
--   knockout: (competition_id, status = 'eliminated', knocked_out_on desc nulls first, sort_name, user_id)
--   season:   (competition_id, points desc, goal_difference desc, goals_for desc, wins desc, sort_name, user_id)
create function private.user_selections_set_sort_name() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  select pg_catalog.lower(pn.username) into new.sort_name from public.player_names pn where pn.id = new.user_id;
  new.sort_name := coalesce(new.sort_name, '');
  return new;
end
$$;

create trigger user_selections_set_sort_name
  before insert or update of user_id on public.user_selections
  for each row execute function private.user_selections_set_sort_name();

-- A rename re-sorts the player's memberships. Competitions are locked first, in id order (the lock order), then
-- the membership rows are updated.
create function private.player_names_sync_sort_name() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.lock_competition(us.competition_id)
     from public.user_selections us
    where us.user_id = new.id
    order by us.competition_id;
  update public.user_selections us
     set sort_name = pg_catalog.lower(new.username)
   where us.user_id = new.id and us.sort_name is distinct from pg_catalog.lower(new.username);
  return null;
end
$$;

create trigger player_names_sync_sort_name
  after insert or update of username on public.player_names
  for each row execute function private.player_names_sync_sort_name();

revoke all on function private.user_selections_set_sort_name() from public;
revoke all on function private.player_names_sync_sort_name() from public;

create index user_selections_knockout_order_idx on public.user_selections
  (competition_id, (status = 'eliminated'), knocked_out_on desc nulls first, sort_name, user_id)
  include (status);

create index user_selections_season_order_idx on public.user_selections
  (competition_id, points desc, goal_difference desc, goals_for desc, wins desc, sort_name, user_id);

-- Partial (rank >= 1 always holds, see membership_ranks_rank_check): only queries that state the predicate use
-- it, i.e. the rank seek of season_leaderboard_page; lookups by competition (the views) stay on the primary key.
create index membership_ranks_competition_rank_idx on public.membership_ranks (competition_id, rank)
  where rank >= 1;

-- ---------------------------------------------------------------------------------------------------------
-- Knockout status labels: one home, used by the view and the page
-- ---------------------------------------------------------------------------------------------------------

-- Winner = the stored knockout_winner, or every active/completed member of an ended competition; Eliminated;
-- else Still In.
create function private.knockout_status(
  p_knockout_winner uuid, p_competition_status text, p_user_id uuid, p_membership_status text
) returns text
  language sql immutable
  set search_path = ''
as $$
  select case
           when p_knockout_winner = p_user_id
             or (p_competition_status = 'inactive' and p_membership_status in ('active', 'completed')) then 'Winner'
           when p_membership_status = 'eliminated' then 'Eliminated'
           else 'Still In'
         end
$$;

revoke all on function private.knockout_status(uuid, text, uuid, text) from public, anon;
grant execute on function private.knockout_status(uuid, text, uuid, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Knockout lives (decision 028)
-- ---------------------------------------------------------------------------------------------------------

-- Each life a knockout member lost (decision 028): the match day and why (a loss, a draw that costs a life, no
-- pick). Written only by match-day processing (private.process_competition, 60_results_and_processing.sql);
-- re-processing from a match day deletes the rows from it on, so lives come back exactly as if the corrected
-- result had been the first. Lives left = competitions.lives - public.lives_lost(...). A row per life rather than a
-- count on the membership: processing a match day of 100,000 members then writes only these narrow rows and the
-- eliminated members, not every member who lost a life (4.4 s of 8 in bench:results); no foreign key for the same
-- reason (a check per row): a membership that goes takes its rows with it (user_selections_drop_life_losses).
create table public.knockout_life_losses (
  competition_id uuid not null,
  user_id uuid not null,
  match_day integer not null,
  outcome text not null,
  primary key (competition_id, user_id, match_day),
  constraint knockout_life_losses_match_day_check check (match_day >= 1),
  constraint knockout_life_losses_outcome_check check (outcome in ('loss', 'draw', 'no_pick'))
);

create index knockout_life_losses_competition_match_day_idx on public.knockout_life_losses (competition_id, match_day);

comment on table public.knockout_life_losses is
  'Lives knockout members lost, one row per life and match day (written only by match-day processing).';

-- An outcome of a processed match day (everyone's, like the standings), not a pick: readable by signed-in players.
alter table public.knockout_life_losses enable row level security;

create policy knockout_life_losses_select_authenticated on public.knockout_life_losses
  for select to authenticated
  using (true);

revoke all on table public.knockout_life_losses from public, anon, authenticated;
grant select on table public.knockout_life_losses to authenticated;
grant select on table public.knockout_life_losses to service_role;

-- Lives a member has lost in a competition (0 outside knockouts). What pages show as lives left with
-- competitions.lives.
create function public.lives_lost(p_competition_id uuid, p_user_id uuid) returns integer
  language sql stable
  set search_path = ''
as $$
  select count(*)::integer from public.knockout_life_losses l
   where l.competition_id = p_competition_id and l.user_id = p_user_id
$$;
revoke all on function public.lives_lost(uuid, uuid) from public, anon;
grant execute on function public.lives_lost(uuid, uuid) to authenticated, service_role;

-- A membership that goes (leaving, a competition deleted) takes its lives with it.
create function private.user_selections_drop_life_losses() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  delete from public.knockout_life_losses l
   using old_rows o
   where l.competition_id = o.competition_id and l.user_id = o.user_id;
  return null;
end
$$;
revoke all on function private.user_selections_drop_life_losses() from public;

create trigger user_selections_drop_life_losses
  after delete on public.user_selections
  referencing old table as old_rows
  for each statement execute function private.user_selections_drop_life_losses();

-- ---------------------------------------------------------------------------------------------------------
-- Views (security_invoker: the caller's row-level security applies, so another player's pick of the current
-- match day stays hidden before its deadline and current_selection is then NULL)
-- ---------------------------------------------------------------------------------------------------------

-- One row per membership; W/D/L, goals, points and rank (season only) are the stored standings. Every column is
-- a per-row lookup, so `where user_id = ...` (dashboard: unique (user_id, competition_id)) and
-- `where competition_id = ...` (leaderboard: user_selections_competition_id_idx) both use indexes.
-- first_kickoff_time/selection_deadline are those of the competition's CURRENT match day.
-- has_selection is true only for a visible pick; selection_hidden is true for another player's row before the
-- current match day's deadline (also for admins, who can nevertheless see the pick). lives / lives_left: the
-- knockout's lives and the member's left; current_selection_auto_picked: the server made the current pick.
create view public.user_competition_stats_view with (security_invoker = true) as
select
  c.id as competition_id,
  c.name as competition,
  c.type as competition_type,
  c.league,
  c.season,
  c.status as competition_status,
  c.registration_status,
  c.visibility,
  c.created_by,
  c.current_match_day,
  md.first_kickoff_time,
  dl.deadline as selection_deadline,
  us.user_id,
  pn.username,
  us.status as membership_status,
  us.knocked_out_on,
  us.match_day as joined_match_day,
  us.wins,
  us.draws,
  us.losses,
  us.goals_for,
  us.goals_against,
  us.points,
  case when c.type = 'season' then mr.rank end as rank,
  ts.selected_team is not null as has_selection,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day))
    as selection_hidden,
  -- 'active' = this member may pick now (the page shows Select Team / Edit Team); every page reads this.
  case
    when us.status = 'eliminated' then 'eliminated'
    when us.status <> 'active'
      or not public.competition_picks_open(c.status, c.registration_status, c.league, c.season, c.current_match_day)
      then 'closed'
    else 'active'
  end as selection_status,
  -- knockout lives (decision 028): the competition's lives and this member's left; pages show them when lives > 1
  c.lives,
  c.lives - public.lives_lost(c.id, us.user_id) as lives_left,
  -- the current pick was made by the server at the deadline (missed pick: auto-pick)
  coalesce(ts.auto_picked, false) as current_selection_auto_picked
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.membership_ranks mr on mr.competition_id = us.competition_id and mr.user_id = us.user_id
left join public.matchdays md
  on md.league = c.league and md.season = c.season and md.match_day = c.current_match_day
cross join lateral (select public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline) dl
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

-- position = row_number() per competition in the leaderboard order (the key of
-- user_selections_knockout_order_idx: not eliminated first, latest knocked_out_on first, sort_name, user id).
-- The window is partitioned by competition_id, so `where competition_id = ...` is pushed below it and uses the
-- index; a filter on user_id alone cannot be pushed below a window and scans all memberships. The pages read
-- the standings through knockout_leaderboard_page; the view stays for the API and is checked against the page by
-- tests/db/results-admin.test.ts.
create view public.knockout_leaderboard_view with (security_invoker = true) as
select
  us.competition_id,
  us.user_id,
  pn.username as user_username,
  private.knockout_status(c.knockout_winner, c.status, us.user_id, us.status) as status,
  us.knocked_out_on,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day))
    as selection_hidden,
  pg_catalog.row_number() over (
    partition by us.competition_id
    order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
  )::integer as position,
  c.lives,
  c.lives - public.lives_lost(c.id, us.user_id) as lives_left,
  coalesce(ts.auto_picked, false) as auto_picked
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

revoke all on table public.user_competition_stats_view from public, anon, authenticated;
revoke all on table public.knockout_leaderboard_view from public, anon, authenticated;
grant select on table public.user_competition_stats_view to authenticated, service_role;
grant select on table public.knockout_leaderboard_view to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Leaderboard pages for large competitions
-- ---------------------------------------------------------------------------------------------------------

-- The views number or sort the whole competition; these functions read one page straight off an ordered index
-- of user_selections and join the names, picks and ranks of that page only. Security invoker: the caller's
-- row-level security applies (another player's current pick stays hidden before the deadline, as in the views).
-- The total for a pager is competitions.player_count.

-- The columns of knockout_leaderboard_view, same order; position = offset + place on the page (1-based); lives,
-- lives_left and auto_picked as in the view (decision 028).
create function public.knockout_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, user_username text, status text, knocked_out_on integer,
  current_selection text, selection_hidden boolean, "position" integer, lives integer, lives_left integer,
  auto_picked boolean
)
  language plpgsql stable
  set search_path = ''
as $fn$
begin
  -- Dynamic SQL so that the plan is made for the actual offset and limit (a generic plan of LIMIT $n
  -- estimates a tenth of the competition and sorts it instead of reading the index).
  return query execute $q$
  select p.competition_id,
         p.user_id,
         pn.username,
         private.knockout_status(c.knockout_winner, c.status, p.user_id, p.status),
         p.knocked_out_on,
         ts.selected_team,
         (p.user_id is distinct from (select auth.uid())
            and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day)),
         ($2 + p.n)::integer,
         c.lives,
         c.lives - public.lives_lost(c.id, p.user_id),
         coalesce(ts.auto_picked, false)
    from (
      select x.*, pg_catalog.row_number() over () as n
        from (
          select us.competition_id, us.user_id, us.status, us.knocked_out_on
            from public.user_selections us
           where us.competition_id = $1
           order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
          offset $2
           limit $3
        ) x
    ) p
    join public.competitions c on c.id = p.competition_id
    left join public.player_names pn on pn.id = p.user_id
    left join public.team_selections ts
      on ts.user_id = p.user_id and ts.competition_id = p.competition_id and ts.match_day = c.current_match_day
   order by p.n
  $q$ using p_competition_id, greatest(p_offset, 0), greatest(least(p_limit, 1000), 0);
end
$fn$;

-- That member's position (null when not a member): 1 + members strictly before in the leaderboard order.
create function public.knockout_leaderboard_position(p_competition_id uuid, p_user_id uuid)
returns integer
  language sql stable
  set search_path = ''
as $$
  -- 1 + members strictly before this one in the leaderboard order, as range counts on the leaderboard index.
  select (1 + case
    when me.status <> 'eliminated' then (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = false
         and o.knocked_out_on is null and (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
    else (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = false)
      + (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = true
         and o.knocked_out_on > me.knocked_out_on)
      + (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = true
         and o.knocked_out_on = me.knocked_out_on and (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
  end)::integer
    from public.user_selections me
   where me.competition_id = p_competition_id and me.user_id = p_user_id
$$;

-- rank (ties share: 1, 1, 3), username, W/D/L, goals, points, position; order: points, goal difference, goals
-- for, wins (desc), then username. Deep pages start at the right rank instead of skipping from the top: the
-- members of one stored rank form a contiguous block that starts exactly at position = rank, so the page at
-- offset O starts in the block with the greatest rank <= O + 1 (one backward step on
-- membership_ranks_competition_rank_idx), and the page is an index seek on the season order index from that
-- block's stats tuple, skipping only O + 1 - rank rows inside the block. Right after a results round (dead index
-- entries, heap not yet all-visible) this avoids walking tens of thousands of entries.
create function public.season_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, username text, rank integer, wins integer, draws integer, losses integer,
  goals_for integer, goals_against integer, goal_difference integer, points integer, "position" integer
)
  language plpgsql stable
  set search_path = ''
as $fn$
declare
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
  v_limit integer := greatest(least(coalesce(p_limit, 0), 1000), 0);
  v_rank integer;
  v_points integer;
  v_gd integer;
  v_gf integer;
  v_wins integer;
begin
  select mr.rank into v_rank
    from public.membership_ranks mr
   where mr.competition_id = p_competition_id and mr.rank >= 1 and mr.rank <= v_offset + 1
   order by mr.rank desc
   limit 1;
  if v_rank is not null then
    select us.points, us.goal_difference, us.goals_for, us.wins into v_points, v_gd, v_gf, v_wins
      from public.membership_ranks mr
      join public.user_selections us on us.user_id = mr.user_id and us.competition_id = mr.competition_id
     where mr.competition_id = p_competition_id and mr.rank >= 1 and mr.rank = v_rank
     limit 1;
  end if;
  if v_points is null then
    -- no ranks (empty competition): from the top, with a bound every member satisfies
    v_rank := 1;
    v_points := 2147483647;
    v_gd := 2147483647;
    v_gf := 2147483647;
    v_wins := 2147483647;
  end if;

  -- Dynamic SQL: planned for the actual values (a generic LIMIT estimate would sort the competition).
  return query execute $q$
  select us.competition_id, us.user_id, pn.username, mr.rank, us.wins, us.draws, us.losses, us.goals_for,
         us.goals_against, us.goal_difference, us.points, ($8 + p.n)::integer
    from (
      select x.*, pg_catalog.row_number() over () as n
        from (
          select us.competition_id, us.user_id
            from public.user_selections us
           where us.competition_id = $1
             and (us.points, us.goal_difference, us.goals_for, us.wins) <= ($4, $5, $6, $7)
           order by us.points desc, us.goal_difference desc, us.goals_for desc, us.wins desc, us.sort_name,
                    us.user_id
          offset $2
           limit $3
        ) x
    ) p
    join public.user_selections us on us.user_id = p.user_id and us.competition_id = p.competition_id
    left join public.player_names pn on pn.id = p.user_id
    left join public.membership_ranks mr on mr.competition_id = p.competition_id and mr.user_id = p.user_id
   order by p.n
  $q$ using p_competition_id, v_offset + 1 - v_rank, v_limit, v_points, v_gd, v_gf, v_wins, v_offset;
end
$fn$;

-- That member's position (null when not a member).
create function public.season_leaderboard_position(p_competition_id uuid, p_user_id uuid) returns integer
  language sql stable
  set search_path = ''
as $$
  select (1 + (
    select count(*)
      from public.user_selections o
     where o.competition_id = me.competition_id
       and (o.points, o.goal_difference, o.goals_for, o.wins) >= (me.points, me.goal_difference, me.goals_for, me.wins)
       and ((o.points, o.goal_difference, o.goals_for, o.wins) > (me.points, me.goal_difference, me.goals_for, me.wins)
            or (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
  ))::integer
    from public.user_selections me
   where me.competition_id = p_competition_id and me.user_id = p_user_id
$$;

revoke all on function public.knockout_leaderboard_page(uuid, integer, integer) from public, anon;
grant execute on function public.knockout_leaderboard_page(uuid, integer, integer) to authenticated, service_role;
revoke all on function public.knockout_leaderboard_position(uuid, uuid) from public, anon;
grant execute on function public.knockout_leaderboard_position(uuid, uuid) to authenticated, service_role;
revoke all on function public.season_leaderboard_page(uuid, integer, integer) from public, anon;
grant execute on function public.season_leaderboard_page(uuid, integer, integer) to authenticated, service_role;
revoke all on function public.season_leaderboard_position(uuid, uuid) from public, anon;
grant execute on function public.season_leaderboard_position(uuid, uuid) to authenticated, service_role;
