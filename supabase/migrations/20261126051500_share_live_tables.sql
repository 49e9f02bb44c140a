-- The provisional tables (live_knockout_table, live_season_table, live_scout_board) ranked the whole competition
-- on every call (0.8-1.4 s at 100,000 players). Now each is computed once per change of its match day and shared
-- (decision 025): a live version per (league, season, match day) that triggers bump in the writing transaction
-- (fixtures' scores and status, memberships, picks, Scout entries and predictions), unlogged cache tables holding
-- the whole ranked table with the version it was computed at, and an advisory transaction lock so that concurrent
-- readers compute it once. Who may see what is unchanged: the functions check it on every call, before reading the
-- cache, and the cache holds nothing that depends on the caller.

-- ---------------------------------------------------------------------------------------------------------
-- Live match day: the provisional tables computed once per change and shared (decision 025)
-- ---------------------------------------------------------------------------------------------------------

-- The live version of a match day: bumped in the writing transaction by every change a provisional table reads
-- (a fixture's score or status, a membership, a pick of the match day, a Scout entry or prediction). A cached
-- table carries the version it was computed at; a different version means: compute again.
create table private.live_versions (
  league text not null,
  season text not null,
  match_day integer not null,
  version bigint not null default 1,
  primary key (league, season, match_day)
);
revoke all on table private.live_versions from public, anon, authenticated;

create function private.live_version(p_league text, p_season text, p_match_day integer) returns bigint
  language sql stable
  set search_path = ''
as $$
  select coalesce((select v.version from private.live_versions v
                    where v.league = p_league and v.season = p_season and v.match_day = p_match_day), 0)
$$;
revoke all on function private.live_version(text, text, integer) from public, anon, authenticated;

create function private.bump_live_version(p_league text, p_season text, p_match_day integer) returns void
  language sql
  security definer
  set search_path = ''
as $$
  insert into private.live_versions as v (league, season, match_day) values (p_league, p_season, p_match_day)
  on conflict (league, season, match_day) do update set version = v.version + 1
$$;
revoke all on function private.bump_live_version(text, text, integer) from public, anon, authenticated;

-- A match day whose picks may already be read by a provisional table: its deadline has passed, or is less than
-- five minutes away (a write validated just before the deadline may commit just after it; five minutes bounds
-- that). Writes before that need no bump: nothing is cached for a match day before its deadline.
create function private.live_version_matters(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select coalesce(public.matchday_deadline(p_league, p_season, p_match_day) <= public.app_now() + interval '5 minutes', false)
$$;
revoke all on function private.live_version_matters(text, text, integer) from public, anon, authenticated;

-- A fixture's score, live score, status, teams, kickoff or match day changed: its match day (old and new) moves on.
create function private.fixtures_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (new.league, new.season, new.match_day, new.status, new.home_score, new.away_score, new.live_status,
          new.live_home_score, new.live_away_score, new.home_team, new.away_team, new.kickoff_time)
         is not distinct from
         (old.league, old.season, old.match_day, old.status, old.home_score, old.away_score, old.live_status,
          old.live_home_score, old.live_away_score, old.home_team, old.away_team, old.kickoff_time) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_live_version(old.league, old.season, old.match_day);
  end if;
  if tg_op = 'INSERT'
     or (tg_op = 'UPDATE' and (new.league, new.season, new.match_day) is distinct from (old.league, old.season, old.match_day)) then
    perform private.bump_live_version(new.league, new.season, new.match_day);
  end if;
  return null;
end
$$;
revoke all on function private.fixtures_bump_live_version() from public;

create trigger fixtures_bump_live_version
  after insert or delete or update on public.fixtures
  for each row execute function private.fixtures_bump_live_version();

-- Memberships (status, standings, names) and picks of a competition's current match day: one bump per match day
-- per statement (processing and standings rewrite many rows at once), only when it matters (see above).
create function private.selections_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.bump_live_version(k.league, k.season, k.match_day)
     from (select distinct c.league, c.season, c.current_match_day as match_day
             from changed_rows r
             join public.competitions c on c.id = r.competition_id
            where (tg_table_name = 'user_selections' or r.match_day = c.current_match_day)
              and private.live_version_matters(c.league, c.season, c.current_match_day)) k
    order by k.league, k.season, k.match_day;
  return null;
end
$$;
revoke all on function private.selections_bump_live_version() from public;

create trigger user_selections_bump_live_version_insert
  after insert on public.user_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger user_selections_bump_live_version_update
  after update on public.user_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger user_selections_bump_live_version_delete
  after delete on public.user_selections
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_insert
  after insert on public.team_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_update
  after update on public.team_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_delete
  after delete on public.team_selections
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();

-- The cached provisional tables: the whole competition ranked once per (match day, live version), the same for
-- every reader (no caller's identity in them); the functions below check who may see them on every call and read
-- one page. Unlogged: a cache, recomputed after a crash empties it.
create unlogged table private.live_table_cache (
  competition_id uuid primary key,
  match_day integer not null,
  version bigint not null
);
revoke all on table private.live_table_cache from public, anon, authenticated;

create unlogged table private.live_knockout_rows (
  competition_id uuid not null,
  "position" integer not null,
  user_id uuid not null,
  knocked_out_on integer,
  team text,
  team_goals integer,
  opponent_goals integer,
  fixture_state text,
  outcome text not null,
  still_in integer not null,
  remaining integer not null,
  primary key (competition_id, "position")
);
revoke all on table private.live_knockout_rows from public, anon, authenticated;

create unlogged table private.live_season_rows (
  competition_id uuid not null,
  "position" integer not null,
  user_id uuid not null,
  team text,
  team_goals integer,
  opponent_goals integer,
  fixture_state text,
  live_points integer,
  points integer,
  goal_difference integer,
  goals_for integer,
  wins integer,
  draws integer,
  losses integer,
  rank integer not null,
  primary key (competition_id, "position")
);
revoke all on table private.live_season_rows from public, anon, authenticated;

-- Makes sure the competition's provisional table is cached for its current match day at the current live version:
-- nothing to do when it is; otherwise one transaction computes it (an advisory lock per competition, held to the
-- end of the transaction: a second reader waits, then finds it stored), the others read it.
create function private.ensure_live_table(p_competition_id uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
declare
  v_type text;
  v_league text;
  v_season text;
  v_md integer;
  v_version bigint;
begin
  select c.type, c.league, c.season, c.current_match_day into v_type, v_league, v_season, v_md
    from public.competitions c where c.id = p_competition_id;
  if v_type is null or v_type not in ('knockout', 'season') then
    return;
  end if;
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('live_table:' || p_competition_id::text, 0));
  -- a new statement, a new snapshot: what another reader stored while this one waited; the version is read before
  -- the rows, so rows stored under it are never older than it
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  delete from private.live_knockout_rows r where r.competition_id = p_competition_id;
  delete from private.live_season_rows r where r.competition_id = p_competition_id;
  if v_type = 'knockout' then
    insert into private.live_knockout_rows (competition_id, "position", user_id, knocked_out_on, team, team_goals,
                                            opponent_goals, fixture_state, outcome, still_in, remaining)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.status, us.knocked_out_on, us.sort_name, ts.selected_team as team, ts.fixture_id,
             case when us.status <> 'active' then null
                  when ts.selected_team is null then 'no_pick'
                  else coalesce(o.outcome, 'not_started') end as o
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
         and us.status = 'active'
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    k as (
      select count(*) filter (where p.o in ('draw', 'loss', 'no_pick'))::integer as out_count,
             count(*) filter (where p.status = 'active')::integer as remaining
        from p
    ),
    r as (
      select p.*, case when p.status = 'active' then private.knockout_outcome_now(p.o, k.out_count, k.remaining)
                       else 'eliminated' end as outcome,
             k.out_count, k.remaining
        from p cross join k
    ),
    -- the order processing would give: still in (alphabetical), then out now, then out before (latest first)
    n as (
      select r.*, pg_catalog.row_number() over (
               order by r.outcome in ('out', 'eliminated'),
                        case when r.outcome = 'out' then 2147483647 else r.knocked_out_on end desc nulls first,
                        r.sort_name, r.user_id) as n
        from r
    )
    select p_competition_id, g.n, g.user_id,
           case when g.outcome = 'out' then v_md else g.knocked_out_on end,
           g.team, o.team_goals, o.opponent_goals, o.fixture_state, g.outcome,
           case when g.out_count = g.remaining then g.remaining else g.remaining - g.out_count end,
           g.remaining
      from n g
      left join o on o.fixture_id = g.fixture_id and o.team = g.team;
  else
    insert into private.live_season_rows (competition_id, "position", user_id, team, team_goals, opponent_goals,
                                          fixture_state, live_points, points, goal_difference, goals_for, wins,
                                          draws, losses, rank)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.sort_name, us.points, us.goal_difference, us.goals_for, us.wins, us.draws, us.losses,
             ts.selected_team as team, ts.fixture_id, o.outcome as o_all, o.fixture_state,
             -- a complete match is already in the stored standings: only a match in play adds to them
             case when o.fixture_state in ('in_play', 'paused') then o.outcome end as o,
             o.team_goals as gf, o.opponent_goals as ga
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    n as (
      select p.*,
             p.points + coalesce(private.season_points_now(p.o), 0) as points_now,
             p.goal_difference + case when p.o is null then 0 else p.gf - p.ga end as gd_now,
             p.goals_for + case when p.o is null then 0 else p.gf end as gf_now,
             p.wins + (p.o = 'win')::integer as wins_now
        from p
    ),
    -- the season's order (points, goal difference, goals for, wins; equal on all four share a rank), then name
    g as (
      select n.*,
             pg_catalog.rank() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc) as rank_now,
             pg_catalog.row_number() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc,
                                                    n.sort_name, n.user_id) as pos
        from n
    )
    select p_competition_id, g.pos, g.user_id, g.team, g.gf, g.ga, g.fixture_state,
           private.season_points_now(case when g.fixture_state in ('complete', 'in_play', 'paused') then g.o_all end),
           g.points_now, g.gd_now, g.gf_now, g.wins_now,
           g.draws + (g.o = 'draw')::integer, g.losses + (g.o = 'loss')::integer, g.rank_now
      from g;
  end if;
  insert into private.live_table_cache (competition_id, match_day, version)
  values (p_competition_id, v_md, v_version)
  on conflict (competition_id) do update set match_day = excluded.match_day, version = excluded.version;
end
$$;
revoke all on function private.ensure_live_table(uuid) from public, anon, authenticated;

-- The knockout's provisional leaderboard if the match day ended now: every member, in the leaderboard's order as
-- it would be after processing: still in (through, waiting for a match not started, or everybody on a
-- roll-over) first, alphabetical; then out on this match day; then the players eliminated before, latest first.
-- Only while the match day is played (private.match_day_in_play) and only to whoever may see its picks (members
-- after the deadline, private.can_see_match_day_picks: the hidden-picks rule); no row otherwise: checked on every
-- call, before the shared table (private.ensure_live_table, computed once per change) is read. One page (offset,
-- limit at most 100); still_in / remaining on every row.
create or replace function private.live_knockout_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_from integer := greatest(coalesce(p_offset, 0), 0);
  v_to integer := greatest(coalesce(p_offset, 0), 0) + greatest(least(coalesce(p_limit, 10), 100), 0);
begin
  if not exists (select 1 from public.competitions c
                  where c.id = p_competition_id and c.type = 'knockout'
                    and private.match_day_in_play(c.id)
                    and private.can_see_match_day_picks(c.id, c.current_match_day)) then
    return;
  end if;
  perform private.ensure_live_table(p_competition_id);
  return query
    select r.user_id, pn.username, r.knocked_out_on, r.team, r.team_goals, r.opponent_goals, r.fixture_state,
           r.outcome, r."position", r.still_in, r.remaining
      from private.live_knockout_rows r
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

create or replace function public.live_knockout_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer)
  language sql
  set search_path = ''
as $$
  select * from private.live_knockout_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

-- The season's provisional table if the match day ended now: the stored standings (complete fixtures, the
-- match day's finished ones included) plus each pick on a match in play scored on its live score (3 / 1 / 0,
-- goals for and against), ranked by the season's order (points, goal difference, goals for, wins; equal on all
-- four share a rank); rank_before is the stored rank, so the page shows the change. Same visibility as the
-- knockout's, checked on every call: while the match day is played, to members after the deadline. One page (at
-- most 100 rows) of the shared table (private.ensure_live_table).
create or replace function private.live_season_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_from integer := greatest(coalesce(p_offset, 0), 0);
  v_to integer := greatest(coalesce(p_offset, 0), 0) + greatest(least(coalesce(p_limit, 10), 100), 0);
begin
  if not exists (select 1 from public.competitions c
                  where c.id = p_competition_id and c.type = 'season'
                    and private.match_day_in_play(c.id)
                    and private.can_see_match_day_picks(c.id, c.current_match_day)) then
    return;
  end if;
  perform private.ensure_live_table(p_competition_id);
  return query
    select r.user_id, pn.username, r.team, r.team_goals, r.opponent_goals, r.fixture_state, r.live_points,
           r.points, r.goal_difference, r.goals_for, r.wins, r.draws, r.losses, r.rank, mr.rank, r."position"
      from private.live_season_rows r
      left join public.membership_ranks mr on mr.competition_id = p_competition_id and mr.user_id = r.user_id
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_season_table(uuid, integer, integer) to authenticated, service_role;

create or replace function public.live_season_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer)
  language sql
  set search_path = ''
as $$
  select * from private.live_season_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_season_table(uuid, integer, integer) to authenticated, service_role;

-- Scout entries and predictions of a match day bump its live version (decision 025), like picks: once per
-- statement for entries (scoring rewrites them in bulk), per row for predictions (saved ten at a time), only when
-- it matters (private.live_version_matters: the deadline passed or is less than five minutes away).
create function private.scout_entries_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.bump_live_version(k.league, k.season, k.match_day)
     from (select distinct r.league, r.season, r.match_day from changed_rows r
            where private.live_version_matters(r.league, r.season, r.match_day)) k
    order by k.league, k.season, k.match_day;
  return null;
end
$$;
revoke all on function private.scout_entries_bump_live_version() from public;

create trigger scout_entries_bump_live_version_insert
  after insert on public.scout_entries
  referencing new table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();
create trigger scout_entries_bump_live_version_update
  after update on public.scout_entries
  referencing new table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();
create trigger scout_entries_bump_live_version_delete
  after delete on public.scout_entries
  referencing old table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();

create function private.scout_predictions_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_entry uuid := case when tg_op = 'DELETE' then old.scout_entry_id else new.scout_entry_id end;
begin
  perform private.bump_live_version(e.league, e.season, e.match_day)
     from public.scout_entries e
    where e.id = v_entry and private.live_version_matters(e.league, e.season, e.match_day);
  return null;
end
$$;
revoke all on function private.scout_predictions_bump_live_version() from public;

create trigger scout_predictions_bump_live_version
  after insert or delete or update of home_goals, away_goals, fixture_id, scout_entry_id on public.scout_predictions
  for each row execute function private.scout_predictions_bump_live_version();

-- The cached provisional Scout board of a match day: every entry ranked once per live version, the same for every
-- reader; who sees it (after the lock, while a match is in play) and which rows are the caller's are decided on
-- every call (private.live_scout_board). Unlogged: a cache.
create unlogged table private.live_scout_cache (
  league text not null,
  season text not null,
  match_day integer not null,
  version bigint not null,
  -- the rows' key: one small number instead of the three columns (100,000 index entries written per change)
  board_id integer generated always as identity unique,
  primary key (league, season, match_day)
);
revoke all on table private.live_scout_cache from public, anon, authenticated;

create unlogged table private.live_scout_rows (
  board_id integer not null,
  "position" integer not null,
  rank integer not null,
  entry_id uuid not null,
  user_id uuid not null,
  entry_index integer not null,
  total_points integer not null,
  exact_count integer not null,
  live_points integer not null,
  primary key (board_id, "position")
);
create index live_scout_rows_user_idx on private.live_scout_rows (board_id, user_id);
revoke all on table private.live_scout_rows from public, anon, authenticated;

-- Makes sure the match day's provisional board is cached at the current live version (as private.ensure_live_table:
-- an advisory lock per match day, held to the end of the transaction, so it is computed once).
create function private.ensure_live_scout_board(p_league text, p_season text, p_match_day integer) returns void
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- every entry of the match day is sorted in memory, not on disk
as $$
declare
  v_version bigint := private.live_version(p_league, p_season, p_match_day);
  v_board integer;
begin
  if exists (select 1 from private.live_scout_cache k
              where k.league = p_league and k.season = p_season and k.match_day = p_match_day
                and k.version = v_version) then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('live_scout:' || p_league || '|' || p_season || '|' || p_match_day, 0));
  v_version := private.live_version(p_league, p_season, p_match_day);
  if exists (select 1 from private.live_scout_cache k
              where k.league = p_league and k.season = p_season and k.match_day = p_match_day
                and k.version = v_version) then
    return;
  end if;
  insert into private.live_scout_cache as k (league, season, match_day, version)
  values (p_league, p_season, p_match_day, v_version)
  on conflict (league, season, match_day) do update set version = excluded.version
  returning k.board_id into v_board;
  delete from private.live_scout_rows r where r.board_id = v_board;
  insert into private.live_scout_rows (board_id, "position", rank, entry_id, user_id, entry_index, total_points,
                                       exact_count, live_points)
  with live as (
    select f.id, f.live_home_score, f.live_away_score
      from public.fixtures f
     where f.league = p_league and f.season = p_season and f.match_day = p_match_day
       and f.status = 'pending' and f.live_status is not null
  ),
  add as (
    select q.scout_entry_id,
           sum(private.scout_points(q.home_goals, q.away_goals, 'complete', l.live_home_score, l.live_away_score))::integer as pts,
           count(*) filter (where private.scout_points(q.home_goals, q.away_goals, 'complete', l.live_home_score,
                                                       l.live_away_score) = 5)::integer as exact
      from live l
      join public.scout_predictions q on q.fixture_id = l.id
     group by q.scout_entry_id
  ),
  e as (
    select e.id, e.user_id, e.entry_index, e.created_at,
           e.total_points + coalesce(a.pts, 0) as total_now, e.exact_count + coalesce(a.exact, 0) as exact_now,
           coalesce(a.pts, 0) as live_pts
      from public.scout_entries e
      left join add a on a.scout_entry_id = e.id
     where e.league = p_league and e.season = p_season and e.match_day = p_match_day
  )
  select v_board,
         pg_catalog.row_number() over (order by e.total_now desc, e.exact_now desc, e.created_at, e.id),
         pg_catalog.rank() over (order by e.total_now desc, e.exact_now desc),
         e.id, e.user_id, e.entry_index, e.total_now, e.exact_now, e.live_pts
    from e;
end
$$;
revoke all on function private.ensure_live_scout_board(text, text, integer) from public, anon, authenticated;

-- Scout "if it ended now": each entry of a match day with its stored points (complete fixtures) plus its
-- predictions of matches in play scored by private.scout_points on the live score as if the match had ended
-- (the one home of Scout's points). Only while a fixture of that match day is in play and after its lock (when
-- entries are revealed to every player); no row otherwise (checked on every call). Returns the top p_limit
-- entries (at most 100) in the board's order and every entry of the caller (mine), each with its provisional rank
-- (equal points and exact count share a rank) and its live points, read off the shared board
-- (private.ensure_live_scout_board, computed once per change).
create or replace function private.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_me uuid := (select auth.uid());
  v_top integer := least(greatest(coalesce(p_limit, 100), 1), 100);
  v_board integer;
begin
  if not (public.matchday_deadline_passed(p_league, p_season, p_match_day)
          and exists (select 1 from public.fixtures f
                       where f.league = p_league and f.season = p_season and f.match_day = p_match_day
                         and f.status = 'pending' and f.live_status is not null)) then
    return;
  end if;
  perform private.ensure_live_scout_board(p_league, p_season, p_match_day);
  select k.board_id into v_board from private.live_scout_cache k
   where k.league = p_league and k.season = p_season and k.match_day = p_match_day;
  return query
    select r.rank, r.entry_id, r.user_id, coalesce(p.display_name, p.username), r.entry_index, r.total_points,
           r.exact_count, r.live_points, r.user_id = v_me
      from (select r.* from private.live_scout_rows r
             where r.board_id = v_board and r."position" <= v_top
            union all
            select r.* from private.live_scout_rows r
             where r.board_id = v_board and r.user_id = v_me and r."position" > v_top) r
      join public.profiles p on p.id = r.user_id
     order by r."position";
end
$$;
revoke all on function private.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function private.live_scout_board(text, text, integer, integer) to authenticated, service_role;

create or replace function public.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer default 100)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language sql
  set search_path = ''
as $$
  select * from private.live_scout_board(p_league, p_season, p_match_day, p_limit)
$$;
revoke all on function public.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.live_scout_board(text, text, integer, integer) to authenticated, service_role;
