-- Season points (win 3, draw 1) have one home, private.season_points: the stored standings and "if it ended now"
-- read it instead of each writing 3 * wins + draws or 3/1/0. Behaviour is unchanged.

-- A season's points: a win 3, a draw 1, a loss 0. The one home of those values: the stored standings
-- (refresh_memberships) and "if it ended now" (private.season_points_now) both read it.
create function private.season_points(p_wins integer, p_draws integer) returns integer
  language sql immutable
as $$
  select 3 * p_wins + p_draws
$$;
revoke all on function private.season_points(integer, integer) from public, anon;
grant execute on function private.season_points(integer, integer) to authenticated, service_role;

create or replace function private.refresh_membership_stats(p_user_id uuid, p_competition_id uuid) returns boolean
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_changed integer;
begin
  update public.user_selections us
     set wins = s.wins, draws = s.draws, losses = s.losses,
         goals_for = s.goals_for, goals_against = s.goals_against, points = private.season_points(s.wins, s.draws)
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
         is distinct from (s.wins, s.draws, s.losses, s.goals_for, s.goals_against, private.season_points(s.wins, s.draws));
  get diagnostics v_changed = row_count;
  return v_changed > 0;
end
$$;

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
           coalesce(sum(g.ga), 0)::integer as goals_against
      from pairs p
      left join public.team_selections ts on ts.user_id = p.user_id and ts.competition_id = p.competition_id
      left join public.fixtures f on f.id = ts.fixture_id and f.status = 'complete'
      cross join lateral (
        select case when f.id is null then null
                    when ts.selected_team = f.home_team then f.home_score else f.away_score end as gf,
               case when f.id is null then null
                    when ts.selected_team = f.home_team then f.away_score else f.home_score end as ga
      ) g
     group by p.user_id, p.competition_id
  ),
  changed as (
    update public.user_selections us
       set wins = s.wins, draws = s.draws, losses = s.losses,
           goals_for = s.goals_for, goals_against = s.goals_against, points = private.season_points(s.wins, s.draws)
      from stats s
     where us.user_id = s.user_id and us.competition_id = s.competition_id
       and (us.wins, us.draws, us.losses, us.goals_for, us.goals_against, us.points)
           is distinct from (s.wins, s.draws, s.losses, s.goals_for, s.goals_against, private.season_points(s.wins, s.draws))
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

create or replace function private.season_points_now(p_pick_outcome text) returns integer
  language sql immutable
as $$
  select case when p_pick_outcome in ('win', 'draw', 'loss')
              then private.season_points((p_pick_outcome = 'win')::integer, (p_pick_outcome = 'draw')::integer) end
$$;
