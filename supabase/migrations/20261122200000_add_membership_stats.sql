-- Stored season standings: per membership the wins, draws, losses, goals for/against and points of the
-- player's picks on complete fixtures (win 3, draw 1, loss 0; the picked team's goals; postponed fixtures and
-- missing picks score nothing; W/D/L for every competition type), and per competition the rank.
--
-- Why stored: standings must be readable by every signed-in player, while the picks they come from are hidden
-- by row-level security (own picks, or revealed to members after the deadline). Aggregates of complete
-- fixtures reveal no pending pick, so they live on the membership row (readable by all), and the standings
-- view needs neither definer rights nor a scan of every pick. The rank (points, goal difference, goals for,
-- wins; equal on all four share a rank: 1, 1, 3) lives in public.membership_ranks: computing it per row at
-- read time is quadratic in the size of the competition, and a separate table keeps re-ranking from locking
-- membership rows (which save_team_selection locks).
--
-- Triggers keep both exact: any change of a pick or of a fixture's result recomputes the affected memberships
-- from scratch (idempotent; a corrected result re-scores), and a competition is re-ranked whenever a member's
-- stats change or a member joins or leaves.
--
-- Lock order (no deadlocks between joins, leaves, saves, result entry and re-ranking): every writer of
-- memberships, picks or ranks first locks the competition row FOR NO KEY UPDATE (private.lock_competition),
-- then membership rows, then pick and rank rows. Triggers below take the competition lock before a membership
-- is inserted or deleted and before a pick is written; result entry locks the affected competitions in id order.
-- A BEFORE DELETE/UPDATE trigger runs after its row is locked, so the SQL API functions lock the competition
-- explicitly before they delete or update (unregister_competition, save_team_selection, set_player_selection);
-- other writers (admins, match-day processing) should do the same: competition first.

alter table public.user_selections
  add column wins integer not null default 0,
  add column draws integer not null default 0,
  add column losses integer not null default 0,
  add column goals_for integer not null default 0,
  add column goals_against integer not null default 0,
  add column points integer not null default 0,
  add column goal_difference integer generated always as (goals_for - goals_against) stored,
  add constraint user_selections_stats_non_negative check (
    wins >= 0 and draws >= 0 and losses >= 0 and goals_for >= 0 and goals_against >= 0 and points >= 0
  );

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

-- Recompute one membership's stats from its picks; true when they changed.
create function private.refresh_membership_stats(p_user_id uuid, p_competition_id uuid) returns boolean
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_changed integer;
begin
  update public.user_selections us
     set wins = s.wins, draws = s.draws, losses = s.losses,
         goals_for = s.goals_for, goals_against = s.goals_against, points = 3 * s.wins + s.draws
    from (
      select count(*) filter (where r.gf > r.ga)::integer as wins,
             count(*) filter (where r.gf = r.ga)::integer as draws,
             count(*) filter (where r.gf < r.ga)::integer as losses,
             coalesce(sum(r.gf), 0)::integer as goals_for,
             coalesce(sum(r.ga), 0)::integer as goals_against
        from (
          select case when ts.selected_team = f.home_team then f.home_score else f.away_score end as gf,
                 case when ts.selected_team = f.home_team then f.away_score else f.home_score end as ga
            from public.team_selections ts
            join public.fixtures f on f.id = ts.fixture_id
           where ts.user_id = p_user_id and ts.competition_id = p_competition_id
             and f.status = 'complete'
        ) r
    ) s
   where us.user_id = p_user_id and us.competition_id = p_competition_id
     and (us.wins, us.draws, us.losses, us.goals_for, us.goals_against, us.points)
         is distinct from (s.wins, s.draws, s.losses, s.goals_for, s.goals_against, 3 * s.wins + s.draws);
  get diagnostics v_changed = row_count;
  return v_changed > 0;
end
$$;

-- The standings lock of a competition (see the lock order above). Re-entrant within a transaction.
create function private.lock_competition(p_competition_id uuid) returns void
  language sql
  security definer
  set search_path = ''
as $$
  select null::void from public.competitions c where c.id = p_competition_id for no key update
$$;

-- Re-rank every member of one competition (only changed ranks are written). Callers hold the competition lock.
create function private.rerank_competition(p_competition_id uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.lock_competition(p_competition_id);
  insert into public.membership_ranks as r (competition_id, user_id, rank)
  select us.competition_id, us.user_id,
         (pg_catalog.rank() over (
            order by us.points desc, us.goal_difference desc, us.goals_for desc, us.wins desc))::integer
    from public.user_selections us
   where us.competition_id = p_competition_id
  on conflict (competition_id, user_id) do update
    set rank = excluded.rank
    where r.rank is distinct from excluded.rank;
end
$$;

-- Refresh the stats of the given memberships (parallel arrays) and re-rank each competition whose standings
-- changed; competitions are locked in id order.
create function private.refresh_memberships(p_user_ids uuid[], p_competition_ids uuid[]) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_competition uuid;
  v_user uuid;
  v_changed boolean;
begin
  for v_competition in
    select distinct c from pg_catalog.unnest(p_competition_ids) as c where c is not null order by c
  loop
    perform private.lock_competition(v_competition);
    v_changed := false;
    for v_user in
      select distinct x.u
        from rows from (pg_catalog.unnest(p_user_ids), pg_catalog.unnest(p_competition_ids)) as x (u, c)
       where x.c = v_competition
       order by x.u
    loop
      if private.refresh_membership_stats(v_user, v_competition) then
        v_changed := true;
      end if;
    end loop;
    if v_changed then
      perform private.rerank_competition(v_competition);
    end if;
  end loop;
end
$$;

-- Picks changed (statement level, so bulk writes refresh and re-rank each competition once).
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
    select array_agg(n.user_id), array_agg(n.competition_id) into v_users, v_competitions from new_rows n;
  elsif tg_op = 'UPDATE' then
    select array_agg(x.user_id), array_agg(x.competition_id) into v_users, v_competitions
      from (select n.user_id, n.competition_id from new_rows n
            union
            select o.user_id, o.competition_id from old_rows o) x;
  else
    select array_agg(o.user_id), array_agg(o.competition_id) into v_users, v_competitions from old_rows o;
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

-- Take the competition lock before a membership or a pick is written (and before the foreign-key checks and
-- cascades that follow).
create function private.lock_competition_of_row() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform private.lock_competition(old.competition_id);
    return old;
  end if;
  if tg_op = 'UPDATE' and new.competition_id is distinct from old.competition_id then
    perform private.lock_competition(least(old.competition_id, new.competition_id));
    perform private.lock_competition(greatest(old.competition_id, new.competition_id));
  else
    perform private.lock_competition(new.competition_id);
  end if;
  return new;
end
$$;

-- Not on update: status changes (eliminations) do not touch the standings, and a BEFORE UPDATE/DELETE trigger
-- runs after the row itself is locked, so functions that delete memberships take the competition lock first.
create trigger user_selections_lock_competition
  before insert or delete on public.user_selections
  for each row execute function private.lock_competition_of_row();

create trigger team_selections_lock_competition
  before insert or update or delete on public.team_selections
  for each row execute function private.lock_competition_of_row();

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

revoke all on function private.refresh_membership_stats(uuid, uuid) from public;
revoke all on function private.rerank_competition(uuid) from public;
revoke all on function private.lock_competition(uuid) from public;
revoke all on function private.lock_competition_of_row() from public;
revoke all on function private.refresh_memberships(uuid[], uuid[]) from public;
revoke all on function private.team_selections_refresh_stats() from public;
revoke all on function private.fixtures_refresh_stats() from public;
revoke all on function private.user_selections_rerank() from public;

alter table public.membership_ranks enable row level security;

create policy membership_ranks_select_authenticated on public.membership_ranks
  for select to authenticated
  using (true);

revoke all on table public.membership_ranks from public, anon, authenticated;
grant select on table public.membership_ranks to authenticated;
grant select on table public.membership_ranks to service_role;

-- Existing data.
select private.refresh_membership_stats(us.user_id, us.competition_id) from public.user_selections us;
select private.rerank_competition(c.id) from public.competitions c
 where exists (select 1 from public.user_selections us where us.competition_id = c.id);
