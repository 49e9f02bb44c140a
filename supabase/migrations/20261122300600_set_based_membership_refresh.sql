-- Set-based refresh of stored standings (replaces the bodies of two functions of
-- 20261122200000_add_membership_stats.sql; same signatures, same results, same lock order).
--
-- Why: a result of a 100,000-member competition touches the stats of the ~10,000 members who picked that
-- fixture. private.refresh_memberships called private.refresh_membership_stats once per member (one UPDATE
-- each), and private.rerank_competition upserted all 100,000 ranks (one conflict check each, even for unchanged
-- ranks): about 2.5 s per result entry in scripts/bench-results.ts. Now one UPDATE recomputes every given
-- membership from its picks, and re-ranking writes only the ranks that differ.

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
           goals_for = s.goals_for, goals_against = s.goals_against, points = 3 * s.wins + s.draws
      from stats s
     where us.user_id = s.user_id and us.competition_id = s.competition_id
       and (us.wins, us.draws, us.losses, us.goals_for, us.goals_against, us.points)
           is distinct from (s.wins, s.draws, s.losses, s.goals_for, s.goals_against, 3 * s.wins + s.draws)
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

create or replace function private.rerank_competition(p_competition_id uuid) returns void
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
