-- The one match-day processing applies the organiser's rules (decision 028): lives (knockout_life_losses,
-- user_selections.lives_lost), the draw rule (pick_costs_life), auto-picks at the deadline, roll-over or joint
-- winners, season points by the competition's rules doubled on a joker (pick_points, in the stored standings), and
-- re-processing after a correction undoes lives and auto-picks from the corrected match day on (also when an
-- auto-pick's league table read the corrected result). "If it ended now" and the provisional tables read the same
-- rule functions. A correction's notice names a change of lives.

create function private.pick_points(p_outcome text, p_win integer, p_draw integer, p_loss integer, p_joker boolean)
returns integer
  language sql immutable
as $$
  select case p_outcome when 'win' then p_win when 'draw' then p_draw when 'loss' then p_loss end
         * case when p_joker then 2 else 1 end
$$;
revoke all on function private.pick_points(text, integer, integer, integer, boolean) from public, anon;
grant execute on function private.pick_points(text, integer, integer, integer, boolean) to authenticated, service_role;

drop function private.refresh_membership_stats(uuid, uuid);

create or replace function private.refresh_memberships(p_user_ids uuid[], p_competition_ids uuid[]) returns void
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

-- Does this pick's outcome cost a knockout life? A loss and no pick always; a draw unless the organiser chose "A
-- draw is enough" (draw_rule 'through'); a win or a postponed match never. The one home of the rule: processing
-- and "if it ended now" both read it. No SET clause, so the planner inlines it.
create function private.pick_costs_life(p_pick_outcome text, p_draw_rule text) returns boolean
  language sql immutable
as $$
  select p_pick_outcome in ('loss', 'no_pick') or (p_pick_outcome = 'draw' and p_draw_rule is distinct from 'through')
$$;
revoke all on function private.pick_costs_life(text, text) from public, anon;
grant execute on function private.pick_costs_life(text, text) to authenticated, service_role;

create or replace function private.team_selections_refresh_stats() returns trigger
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

create or replace function private.selections_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  -- live_version_matters once per match day, not once per changed row (a processing step rewrites 100,000)
  perform private.bump_live_version(k.league, k.season, k.match_day)
     from (select distinct c.league, c.season, c.current_match_day as match_day
             from changed_rows r
             join public.competitions c on c.id = r.competition_id
            where tg_table_name = 'user_selections' or r.match_day = c.current_match_day) k
    where private.live_version_matters(k.league, k.season, k.match_day)
    order by k.league, k.season, k.match_day;
  return null;
end
$$;

create or replace function private.process_competition(p_competition_id uuid) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_md integer;
  v_done integer := 0;
  v_remaining integer;
  v_out_count integer;
  v_losers uuid[];
  v_losses text[];
  v_out uuid[];
  v_eliminated integer;
  v_rolled boolean;
  v_joint boolean;
  v_left integer;
  v_winner uuid;
begin
  perform private.lock_competition(p_competition_id);
  loop
    select * into v_c from public.competitions c where c.id = p_competition_id;
    exit when not found or v_c.status <> 'active' or v_c.type not in ('knockout', 'season');
    v_md := v_c.current_match_day;
    exit when exists (select 1 from public.competition_matchday_results r
                       where r.competition_id = p_competition_id and r.match_day = v_md);
    -- never before the match day's deadline: picks are still open, nobody is out "for no pick" yet
    exit when not public.matchday_closed(v_c.league, v_c.season, v_md);
    -- the deadline has passed: a missed pick becomes the server's (missed pick: auto-pick; idempotent)
    if v_c.missed_pick_rule = 'auto' then
      perform private.auto_pick(p_competition_id, v_md);
    end if;
    -- finished: has fixtures, none pending
    exit when not exists (select 1 from public.fixtures f
                           where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md)
           or exists (select 1 from public.fixtures f
                       where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md
                         and f.status = 'pending');

    v_rolled := false;
    v_joint := false;
    v_left := null;
    v_losers := null;
    v_losses := null;
    v_eliminated := 0;
    if v_c.type = 'knockout' then
      select count(*)::integer,
             (count(*) filter (where x.costs and x.last_life))::integer,
             pg_catalog.array_agg(x.user_id) filter (where x.costs),
             pg_catalog.array_agg(x.outcome) filter (where x.costs),
             pg_catalog.array_agg(x.user_id) filter (where x.costs and x.last_life)
        into v_remaining, v_out_count, v_losers, v_losses, v_out
        from (
          select us.user_id, o.outcome,
                 private.pick_costs_life(o.outcome, v_c.draw_rule) as costs,
                 v_c.lives - coalesce(ll.n, 0) <= 1 as last_life
            from public.user_selections us
            left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                        where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
            left join public.team_selections ts
              on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = v_md
            -- The pick's outcome has one home, private.pick_outcome_now (also "if it ended now"), read once per
            -- team of the match day (private.match_day_outcomes_now), not once per member: on a processed match
            -- day every fixture is complete or postponed, so it is win, draw, loss, postponed or no_pick here.
            left join private.match_day_outcomes_now(v_c.league, v_c.season, v_md) t
              on t.fixture_id = ts.fixture_id and t.team = ts.selected_team
            cross join lateral (select case when ts.selected_team is null then 'no_pick' else t.outcome end as outcome) o
           where us.competition_id = p_competition_id and us.status = 'active'
        ) x;

      if v_out_count > 0 and v_out_count = v_remaining then
        -- every remaining member would go out: roll-over (nobody loses a life) or joint winners (they all win)
        if v_c.everyone_out_rule = 'joint' then
          v_joint := true;
        else
          v_rolled := true;
        end if;
        v_losers := null;
      end if;
      if v_losers is not null then
        insert into public.knockout_life_losses (competition_id, user_id, match_day, outcome)
        select p_competition_id, l.user_id, v_md, l.outcome
          from rows from (pg_catalog.unnest(v_losers), pg_catalog.unnest(v_losses)) as l (user_id, outcome);
        -- only the members whose last life went are written (a lost life is its row above)
        if v_out is not null then
          update public.user_selections us
             set status = 'eliminated', knocked_out_on = v_md
            from pg_catalog.unnest(v_out) as o (user_id)
           where us.competition_id = p_competition_id and us.user_id = o.user_id and us.status = 'active';
        end if;
        v_eliminated := v_out_count;
      end if;
      v_left := v_remaining - v_eliminated;

      if v_joint or v_left = 1 or (v_left > 1 and v_md >= v_c.total_match_days) then
        select us.user_id into v_winner
          from public.user_selections us
         where us.competition_id = p_competition_id and us.status = 'active'
         order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
         limit 1;
        update public.user_selections us set status = 'completed'
         where us.competition_id = p_competition_id and us.status = 'active';
        update public.competitions c
           set knockout_winner = v_winner, status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      elsif v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    else
      if v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    end if;

    insert into public.competition_matchday_results as r
      (competition_id, match_day, processed_at, still_in, eliminated, rolled_over)
    values (p_competition_id, v_md, public.app_now(), v_left,
            case when v_c.type = 'knockout' then v_eliminated end, v_rolled);
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;

create or replace function private.reprocess_competition(p_competition_id uuid, p_from_match_day integer) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_from integer;
begin
  perform private.lock_competition(p_competition_id);
  select * into v_c from public.competitions c where c.id = p_competition_id;
  if not found or v_c.type not in ('knockout', 'season') then
    return 0;
  end if;
  v_from := greatest(p_from_match_day, v_c.start_match_day);
  delete from public.team_selections ts
   where ts.competition_id = p_competition_id and ts.match_day >= v_from and ts.auto_picked;
  if exists (select 1 from public.competition_matchday_results r
              where r.competition_id = p_competition_id and r.match_day >= v_from) then
    delete from public.competition_matchday_results r
     where r.competition_id = p_competition_id and r.match_day >= v_from;
    if v_c.type = 'knockout' then
      delete from public.knockout_life_losses l
       where l.competition_id = p_competition_id and l.match_day >= v_from;
      -- members out on or after it, and winners, play on (with the lives they had lost before it)
      update public.user_selections us
         set status = 'active', knocked_out_on = null
       where us.competition_id = p_competition_id
         and ((us.status = 'eliminated' and us.knocked_out_on >= v_from) or us.status = 'completed');
    end if;
    update public.competitions c
       set current_match_day = least(v_from, c.total_match_days),
           status = 'active',
           knockout_winner = null,
           registration_status = case when c.registration_status = 'completed' then 'closed'
                                      else c.registration_status end
     where c.id = p_competition_id;
  end if;
  return private.process_competition(p_competition_id);
end
$$;

create or replace function private.after_fixture_change(p_league text, p_season text, p_match_day integer, p_changed boolean)
returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_id uuid;
  v_advanced integer := 0;
  v_n integer;
  v_auto_from integer;
begin
  perform private.lock_competitions_of(p_league, p_season);
  for v_id in
    select c.id from public.competitions c
     where c.league = p_league and c.season = p_season and c.type in ('knockout', 'season')
       and (c.start_match_day <= p_match_day or (p_changed and c.missed_pick_rule = 'auto'))
     order by c.id
  loop
    v_auto_from := null;
    if p_changed then
      select min(ts.match_day) into v_auto_from
        from public.team_selections ts
       where ts.competition_id = v_id and ts.auto_picked and ts.match_day > p_match_day;
    end if;
    if p_changed and exists (select 1 from public.competition_matchday_results r
                              where r.competition_id = v_id and r.match_day = p_match_day) then
      v_n := private.reprocess_competition(v_id, p_match_day);
    elsif v_auto_from is not null then
      v_n := private.reprocess_competition(v_id, v_auto_from);
    else
      v_n := private.process_competition(v_id);
    end if;
    if v_n > 0 then
      v_advanced := v_advanced + 1;
    end if;
  end loop;
  return v_advanced;
end
$$;

create or replace function private.process_due_matchdays() returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_id uuid;
  v_advanced integer := 0;
begin
  -- Players may not run it (the role setting is the API role also inside this definer function).
  if pg_catalog.current_setting('role', true) in ('authenticated', 'anon') and not private.is_admin() then
    raise exception using errcode = '42501', message = 'Access denied. Admins only.';
  end if;
  perform private.close_due_registrations();
  for v_id in
    select c.id from public.competitions c
     where c.status = 'active' and c.type in ('knockout', 'season')
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
       and ((exists (select 1 from public.fixtures f
                      where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day)
             and not exists (select 1 from public.fixtures f
                              where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                                and f.status = 'pending'))
            or (c.missed_pick_rule = 'auto'
                and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)))
     order by c.id
  loop
    if private.process_competition(v_id) > 0 then
      v_advanced := v_advanced + 1;
    end if;
  end loop;
  return v_advanced;
end
$$;

create or replace function private.snapshot_result_outcomes(p_league text, p_season text, p_match_day integer, p_fixture_id bigint)
  returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  create temporary table if not exists result_outcomes_before (
    competition_id uuid not null,
    user_id uuid not null,
    type text not null,
    name text not null,
    status text not null,
    knocked_out_on integer,
    points integer not null,
    goals_for integer not null,
    goals_against integer not null,
    lives integer not null,
    lives_lost integer not null
  ) on commit drop;
  delete from pg_temp.result_outcomes_before;
  insert into pg_temp.result_outcomes_before
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against,
         c.lives, public.lives_lost(c.id, us.user_id)
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id
   where c.league = p_league and c.season = p_season and c.type = 'knockout'
     and (c.start_match_day <= p_match_day or c.missed_pick_rule = 'auto')
  union all
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against,
         c.lives, public.lives_lost(c.id, us.user_id)
    from public.team_selections ts
    join public.competitions c on c.id = ts.competition_id and c.type = 'season'
    join public.user_selections us on us.competition_id = ts.competition_id and us.user_id = ts.user_id
   where ts.fixture_id = p_fixture_id;
  analyze pg_temp.result_outcomes_before;  -- planned on real counts below (a new temporary table has no statistics)
end
$$;

create or replace function private.notify_result_correction(p_change_id bigint) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_c public.fixture_result_changes%rowtype;
  v_f public.fixtures%rowtype;
  v_headline text;
  v_n integer;
begin
  select * into v_c from public.fixture_result_changes r where r.id = p_change_id;
  select * into v_f from public.fixtures f where f.id = v_c.fixture_id;
  v_headline := pg_catalog.format('Result corrected: %s v %s (%s %s, Match Day %s) is now %s (was %s).',
    v_f.home_team, v_f.away_team, v_f.league, v_f.season, v_f.match_day,
    private.result_text(v_c.new_status, v_c.new_home_score, v_c.new_away_score),
    private.result_text(v_c.old_status, v_c.old_home_score, v_c.old_away_score));

  with game as (
    select b.user_id, b.name,
           case
             when b.type = 'knockout'
                  and (b.status, b.knocked_out_on, b.lives_lost)
                      is distinct from (us.status, us.knocked_out_on, public.lives_lost(us.competition_id, us.user_id)) then
               pg_catalog.format('%s: %s (was %s).', b.name,
                                 private.knockout_outcome_text(us.status, us.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - public.lives_lost(us.competition_id, us.user_id) end),
                                 private.knockout_outcome_text(b.status, b.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - b.lives_lost end))
             when b.type = 'season' and b.points <> us.points then
               pg_catalog.format('%s: %s (was %s).', b.name, private.points_text(us.points), b.points)
             when b.type = 'season' and (b.goals_for, b.goals_against) <> (us.goals_for, us.goals_against) then
               pg_catalog.format('%s: goals %s-%s (was %s-%s).', b.name, us.goals_for, us.goals_against, b.goals_for, b.goals_against)
           end as line,
           -- the facts behind the line, compact (a correction can write 100,000 of these)
           case when b.type = 'knockout'
                then pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'knockout',
                       'before', private.knockout_outcome_text(b.status, b.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - b.lives_lost end),
                       'after', private.knockout_outcome_text(us.status, us.knocked_out_on,
                                                              case when b.lives > 1 then b.lives - public.lives_lost(us.competition_id, us.user_id) end))
                else pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'season',
                       'before', pg_catalog.jsonb_build_array(b.points, b.goals_for, b.goals_against),
                       'after', pg_catalog.jsonb_build_array(us.points, us.goals_for, us.goals_against)) end as change
      from pg_temp.result_outcomes_before b
      join public.user_selections us on us.competition_id = b.competition_id and us.user_id = b.user_id
  ),
  scout as (
    select e.user_id,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.old_status, v_c.old_home_score, v_c.old_away_score))::integer as before,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.new_status, v_c.new_home_score, v_c.new_away_score))::integer as after
      from public.scout_predictions p
      join public.scout_entries e on e.id = p.scout_entry_id
     where p.fixture_id = v_c.fixture_id
     group by e.user_id
  ),
  lines as (
    select g.user_id, 0 as ord, g.name, g.line, g.change from game g where g.line is not null
    union all
    select s.user_id, 1, 'Scout',
           pg_catalog.format('Scout: your predictions of this match score %s (was %s).', private.points_text(s.after), s.before),
           pg_catalog.jsonb_build_object('type', 'scout', 'before', s.before, 'after', s.after)
      from scout s where s.before <> s.after
  ),
  per_player as (
    select l.user_id,
           pg_catalog.string_agg(l.line, ' ' order by l.ord, l.name) as text,
           pg_catalog.jsonb_agg(l.change order by l.ord, l.name) as changes
      from lines l
     group by l.user_id
  ),
  inserted as (
    insert into public.notices (user_id, kind, body, params, link, created_at)
    select pp.user_id, 'result_correction',
           pg_catalog.left(v_headline || ' ' || pp.text, 3990),
           -- the match, its old and new score: the change row (public.fixture_result_changes) has them
           pg_catalog.jsonb_build_object('change_id', v_c.id, 'fixture_id', v_f.id, 'changes', pp.changes),
           '/notices', public.app_now()
      from per_player pp
    returning user_id, body
  ),
  pushed as (
    -- a push carries at most ~1,000 characters (Web Push payloads are small); the notice keeps the whole text
    insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
    select i.user_id, s.id, 'notice', 'FootyCoach',
           case when pg_catalog.char_length(i.body) > 1000 then pg_catalog.left(i.body, 960) || ' ... (see Notices)' else i.body end,
           '/notices', public.app_now()
      from inserted i
      join public.profiles p on p.id = i.user_id and p.notifications_enabled
      join public.push_subscriptions s on s.user_id = i.user_id
    returning 1
  )
  select count(*)::integer into v_n from inserted;

  update public.fixture_result_changes r set notices = v_n where r.id = p_change_id;
  return v_n;
end
$$;

create or replace function private.knockout_counts_now(p_competition_id uuid, p_match_day integer)
  returns table (out_count integer, remaining integer)
  language sql stable security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
  with c as (select c.id, c.league, c.season, c.lives, c.draw_rule from public.competitions c where c.id = p_competition_id),
  o as (select o.* from c cross join lateral private.match_day_outcomes_now(c.league, c.season, p_match_day) o)
  select (count(*) filter (where c.lives - coalesce(ll.n, 0) <= 1
                             and private.pick_costs_life(case when ts.selected_team is null then 'no_pick' else o.outcome end,
                                                         c.draw_rule)))::integer,
         count(*)::integer
    from c
    join public.user_selections us on us.competition_id = c.id and us.status = 'active'
    left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
    left join public.team_selections ts
      on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = p_match_day
    left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
$$;

create or replace function private.ensure_live_table(p_competition_id uuid) returns void
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
  v_c public.competitions%rowtype;
begin
  select * into v_c from public.competitions c where c.id = p_competition_id;
  v_type := v_c.type;
  v_league := v_c.league;
  v_season := v_c.season;
  v_md := v_c.current_match_day;
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
                                            opponent_goals, fixture_state, outcome, still_in, remaining, lives_left,
                                            auto_picked)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.status, us.knocked_out_on, us.sort_name, ts.selected_team as team, ts.fixture_id,
             coalesce(ts.auto_picked, false) as auto_picked, v_c.lives - coalesce(ll.n, 0) as lives,
             case when us.status <> 'active' then null
                  when ts.selected_team is null then 'no_pick'
                  else coalesce(o.outcome, 'not_started') end as o
        from public.user_selections us
        left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                    where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
         and us.status = 'active'
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    k as (
      select count(*) filter (where p.lives <= 1 and private.pick_costs_life(p.o, v_c.draw_rule))::integer as out_count,
             count(*) filter (where p.status = 'active')::integer as remaining
        from p
    ),
    r as (
      select p.*, case when p.status = 'active'
                       then private.knockout_outcome_now(p.o, v_c.draw_rule, p.lives, v_c.everyone_out_rule,
                                                         k.out_count, k.remaining)
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
           private.knockout_still_in_now(g.out_count, g.remaining),
           g.remaining,
           case when g.outcome in ('out', 'eliminated') then 0 else g.lives - (g.outcome = 'life_lost')::integer end,
           g.auto_picked
      from n g
      left join o on o.fixture_id = g.fixture_id and o.team = g.team;
  else
    insert into private.live_season_rows (competition_id, "position", user_id, team, team_goals, opponent_goals,
                                          fixture_state, live_points, points, goal_difference, goals_for, wins,
                                          draws, losses, rank, auto_picked, joker)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.sort_name, us.points, us.goal_difference, us.goals_for, us.wins, us.draws, us.losses,
             ts.selected_team as team, ts.fixture_id, o.outcome as o_all, o.fixture_state,
             coalesce(ts.auto_picked, false) as auto_picked, v_c.joker and j.match_day is not null as joker,
             -- a complete match is already in the stored standings: only a match in play adds to them
             case when o.fixture_state in ('in_play', 'paused') then o.outcome end as o,
             o.team_goals as gf, o.opponent_goals as ga
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
        left join public.season_jokers j
          on j.competition_id = us.competition_id and j.user_id = us.user_id and j.match_day = v_md
       where us.competition_id = p_competition_id
    ),
    n as (
      select p.*,
             p.points + coalesce(private.pick_points(p.o, v_c.win_points, v_c.draw_points, v_c.loss_points, p.joker), 0)
               as points_now,
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
           private.pick_points(case when g.fixture_state in ('complete', 'in_play', 'paused') then g.o_all end,
                               v_c.win_points, v_c.draw_points, v_c.loss_points, g.joker),
           g.points_now, g.gd_now, g.gf_now, g.wins_now,
           g.draws + (g.o = 'draw')::integer, g.losses + (g.o = 'loss')::integer, g.rank_now, g.auto_picked, g.joker
      from g;
  end if;
  insert into private.live_table_cache (competition_id, match_day, version)
  values (p_competition_id, v_md, v_version)
  on conflict (competition_id) do update set match_day = excluded.match_day, version = excluded.version;
end
$$;

drop function private.knockout_outcome_text(text, integer);
create function private.knockout_outcome_text(p_status text, p_knocked_out_on integer, p_lives_left integer)
returns text
  language sql immutable
  set search_path = ''
as $$
  select case when p_status = 'eliminated' then 'eliminated on Match Day ' || p_knocked_out_on::text
              when p_status = 'completed' then 'a winner'
              when p_lives_left is null then 'still in'
              else 'still in with ' || p_lives_left::text || case when p_lives_left = 1 then ' life' else ' lives' end
                   || ' left' end
$$;
revoke all on function private.knockout_outcome_text(text, integer, integer) from public, anon, authenticated;

drop function private.knockout_outcome_now(text, integer, integer);
create function private.knockout_outcome_now(p_pick_outcome text, p_draw_rule text, p_lives_left integer,
                                             p_everyone_out text, p_out_count integer, p_remaining integer) returns text
  language sql immutable
as $$
  select case
    when p_pick_outcome = 'not_started' then 'waiting'
    when not private.pick_costs_life(p_pick_outcome, p_draw_rule) then 'through'
    when p_out_count = p_remaining then case when p_everyone_out = 'joint' then 'joint_winner' else 'rolled_over' end
    when p_lives_left > 1 then 'life_lost'
    else 'out'
  end
$$;
revoke all on function private.knockout_outcome_now(text, text, integer, text, integer, integer) from public, anon;
grant execute on function private.knockout_outcome_now(text, text, integer, text, integer, integer) to authenticated, service_role;

drop function public.if_it_ended_now(uuid);
drop function private.if_it_ended_now(uuid);
create function private.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer,
                 lives_left integer, auto_picked boolean)
  language sql stable security definer
  set search_path = ''
as $$
  with c as (
    select c.id, c.type, c.league, c.season, c.current_match_day as md, me.status as my_status,
           c.draw_rule, c.everyone_out_rule, c.win_points, c.draw_points, c.loss_points,
           c.lives - public.lives_lost(c.id, me.user_id) as my_lives,
           c.joker and exists (select 1 from public.season_jokers j
                                where j.competition_id = c.id and j.user_id = me.user_id
                                  and j.match_day = c.current_match_day) as joker,
           exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                      and (f.live_status is not null or f.status = 'complete')) as in_play
      from public.competitions c
      join public.user_selections me on me.competition_id = c.id and me.user_id = (select auth.uid())
     where (p_competition_id is null or c.id = p_competition_id)
       and c.status = 'active' and c.type in ('knockout', 'season')
       and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
  ),
  -- the caller's own pick
  p as (
    select c.id as competition_id, ts.selected_team as team, coalesce(ts.auto_picked, false) as auto_picked, f as fx,
           private.pick_outcome_now(ts.selected_team, f) as o
      from c
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = (select auth.uid()) and ts.match_day = c.md
      left join public.fixtures f on f.id = ts.fixture_id
  ),
  -- knockout: every player still in and how many would go out; an outcome belongs to a (fixture, team), so it is
  -- read once per team picked, not once per player (private.knockout_counts_now)
  k as (
    select c.id as competition_id, n.out_count, n.remaining
      from c cross join lateral private.knockout_counts_now(c.id, c.md) n
     where c.type = 'knockout'
  ),
  r as (
    select c.*, p.team, p.auto_picked, p.fx, p.o, k.out_count, k.remaining,
           case when c.type = 'season' then p.o
                when c.my_status <> 'active' then 'not_playing'
                else private.knockout_outcome_now(p.o, c.draw_rule, c.my_lives, c.everyone_out_rule, k.out_count,
                                                  k.remaining) end as outcome
      from c
      join p on p.competition_id = c.id
      left join k on k.competition_id = c.id
  )
  select r.id, r.type, r.league, r.season, r.md, r.in_play, r.team,
         case when r.team = (r.fx).home_team then (r.fx).away_team else (r.fx).home_team end,
         case when (r.fx).status = 'complete' then
                case when r.team = (r.fx).home_team then (r.fx).home_score else (r.fx).away_score end
              else case when r.team = (r.fx).home_team then (r.fx).live_home_score else (r.fx).live_away_score end end,
         case when (r.fx).status = 'complete' then
                case when r.team = (r.fx).home_team then (r.fx).away_score else (r.fx).home_score end
              else case when r.team = (r.fx).home_team then (r.fx).live_away_score else (r.fx).live_home_score end end,
         case when r.team is null then null
              when (r.fx).status in ('complete', 'postponed') then (r.fx).status
              when (r.fx).live_status = 'IN_PLAY' then 'in_play'
              when (r.fx).live_status = 'PAUSED' then 'paused'
              else 'not_started' end,
         r.outcome,
         case when r.type = 'season' then private.pick_points(r.o, r.win_points, r.draw_points, r.loss_points, r.joker) end,
         case when r.type = 'knockout' then
                private.knockout_still_in_now(r.out_count, r.remaining) end,
         case when r.type = 'knockout' then r.remaining end,
         case when r.type = 'knockout' then
                case when r.outcome = 'out' or r.my_status = 'eliminated' then 0
                     else r.my_lives - (r.outcome = 'life_lost')::integer end end,
         r.auto_picked
    from r
$$;
revoke all on function private.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function private.if_it_ended_now(uuid) to authenticated, service_role;

create function public.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer,
                 lives_left integer, auto_picked boolean)
  language sql stable
  set search_path = ''
as $$
  select * from private.if_it_ended_now(p_competition_id)
$$;
revoke all on function public.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function public.if_it_ended_now(uuid) to authenticated, service_role;

drop function private.season_points_now(text);
drop function private.season_points(integer, integer);

alter table private.live_knockout_rows
  add column lives_left integer,
  add column auto_picked boolean not null default false;
alter table private.live_season_rows
  add column auto_picked boolean not null default false,
  add column joker boolean not null default false;
-- computed under the old rules: recomputed on the next read
delete from private.live_table_cache;

drop function public.live_knockout_table(uuid, integer, integer);
drop function private.live_knockout_table(uuid, integer, integer);
drop function public.live_season_table(uuid, integer, integer);
drop function private.live_season_table(uuid, integer, integer);
create function private.live_knockout_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer, lives_left integer, auto_picked boolean)
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
           r.outcome, r."position", r.still_in, r.remaining, r.lives_left, r.auto_picked
      from private.live_knockout_rows r
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_knockout_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer, lives_left integer, auto_picked boolean)
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
create function private.live_season_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer, auto_picked boolean, joker boolean)
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
           r.points, r.goal_difference, r.goals_for, r.wins, r.draws, r.losses, r.rank, mr.rank, r."position",
           r.auto_picked, r.joker
      from private.live_season_rows r
      left join public.membership_ranks mr on mr.competition_id = p_competition_id and mr.user_id = r.user_id
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_season_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_season_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer, auto_picked boolean, joker boolean)
  language sql
  set search_path = ''
as $$
  select * from private.live_season_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_season_table(uuid, integer, integer) to authenticated, service_role;

-- a joker on the current match day doubles its points in the provisional season table (decision 028)
create trigger season_jokers_bump_live_version_insert
  after insert on public.season_jokers
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger season_jokers_bump_live_version_update
  after update on public.season_jokers
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger season_jokers_bump_live_version_delete
  after delete on public.season_jokers
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();
