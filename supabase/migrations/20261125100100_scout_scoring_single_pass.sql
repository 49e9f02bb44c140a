-- Scout scoring (decision 015) at 100,000 players: the season-totals step joined the best entry before and after
-- of every touched (player, match day), and the planner, misjudging that join at one row, ran it as a nested
-- loop (450 million comparisons at 30,000 players: 70 s). Both bests now come from one ranked pass. And each
-- entry's change now comes from the rewritten predictions (old and new points), not from re-summing every touched
-- entry's predictions. Same results; only private.score_scout_fixtures changes.

create or replace function private.score_scout_fixtures(p_fixture_ids bigint[]) returns integer
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- a match day's entries (100,000) are sorted and hashed in memory, not on disk
as $$
declare
  v_leagues text[];
  v_seasons text[];
  v_changed integer;
  v_k record;
begin
  if p_fixture_ids is null or pg_catalog.cardinality(p_fixture_ids) = 0 then
    return 0;
  end if;
  select pg_catalog.array_agg(k.league order by k.league, k.season), pg_catalog.array_agg(k.season order by k.league, k.season)
    into v_leagues, v_seasons
    from (select distinct f.league, f.season from public.fixtures f where f.id = any (p_fixture_ids)) k;
  perform private.lock_scout_competitions(v_leagues, v_seasons);

  -- 1. Re-score (only predictions whose points change are written) and keep each touched entry's change: it
  -- drives the season totals below.
  create temporary table if not exists scout_entry_changes (
    entry_id uuid primary key, d_points integer not null, d_exact integer not null, n_predictions integer not null
  ) on commit drop;
  delete from pg_temp.scout_entry_changes;
  -- The change of each touched entry comes from the rewritten rows themselves (old and new points side by side),
  -- so entries are not re-summed from their predictions.
  with scored as (
    select q.ctid as row_id, q.points_awarded as old_points, q.exact as old_exact,
           private.scout_points(q.home_goals, q.away_goals, f.status, f.home_score, f.away_score) as new_points
      from public.scout_predictions q
      join public.fixtures f on f.id = q.fixture_id
     where q.fixture_id = any (p_fixture_ids)
  ), changed as (
    update public.scout_predictions p
       set points_awarded = s.new_points, exact = s.new_points = 5
      from scored s
     where p.ctid = s.row_id and s.new_points <> s.old_points
    returning p.scout_entry_id, s.new_points - s.old_points as d_points, (s.new_points = 5)::integer - s.old_exact::integer as d_exact
  )
  insert into pg_temp.scout_entry_changes (entry_id, d_points, d_exact, n_predictions)
  select c.scout_entry_id, sum(c.d_points)::integer, sum(c.d_exact)::integer, count(*)::integer
    from changed c group by c.scout_entry_id;
  select coalesce(sum(c.n_predictions), 0)::integer into v_changed from pg_temp.scout_entry_changes c;
  analyze pg_temp.scout_entry_changes;  -- a new temporary table has no statistics: plan the joins below on real counts

  if v_changed > 0 then
    -- 2. Season totals: players without a row yet (entries not made through redeem) get one built in full.
    for v_k in
      select e.league, e.season, pg_catalog.array_agg(distinct e.user_id) as users
        from pg_temp.scout_entry_changes c
        join public.scout_entries e on e.id = c.entry_id
       where not exists (select 1 from public.scout_season_totals s
                          where s.league = e.league and s.season = e.season and s.user_id = e.user_id)
       group by e.league, e.season
    loop
      perform private.refresh_scout_season_totals(v_k.league, v_k.season, v_k.users);
    end loop;

    -- 3. Then move every touched player's season total by the change of the best entry of each touched match
    -- day: the best before (entries still hold the old totals) and after (old totals + change). Only the touched
    -- (player, match day) groups are read, never the player's whole season.
    with touched as (
      select distinct e.league, e.season, e.match_day, e.user_id
        from pg_temp.scout_entry_changes c join public.scout_entries e on e.id = c.entry_id
    ), ranked as (
      -- each entry of a touched (player, match day) with its rank before (stored totals) and after (+ change);
      -- one pass, no join of the two bests (the planner misjudged that join's size and ran it as a nested loop)
      select e.league, e.season, e.match_day, e.user_id, e.entry_index,
             e.total_points as old_p, e.exact_count as old_e,
             e.total_points + coalesce(c.d_points, 0) as new_p, e.exact_count + coalesce(c.d_exact, 0) as new_e,
             pg_catalog.row_number() over (partition by e.league, e.season, e.match_day, e.user_id
                                           order by e.total_points desc, e.exact_count desc, e.created_at, e.id) as old_rank,
             pg_catalog.row_number() over (partition by e.league, e.season, e.match_day, e.user_id
                                           order by e.total_points + coalesce(c.d_points, 0) desc,
                                                    e.exact_count + coalesce(c.d_exact, 0) desc, e.created_at, e.id) as new_rank
        from touched t
        join public.scout_entries e
          on e.user_id = t.user_id and e.league = t.league and e.season = t.season and e.match_day = t.match_day
        left join pg_temp.scout_entry_changes c on c.entry_id = e.id
    ), per_day as (
      select r.league, r.season, r.match_day, r.user_id,
             max(r.new_p) filter (where r.new_rank = 1) - max(r.old_p) filter (where r.old_rank = 1) as d_points,
             max(r.new_e) filter (where r.new_rank = 1) - max(r.old_e) filter (where r.old_rank = 1) as d_exact,
             max(r.entry_index) filter (where r.new_rank = 1) as entry_index
        from ranked r
       group by r.league, r.season, r.match_day, r.user_id
    ), delta as (
      select p.league, p.season, p.user_id,
             sum(p.d_points)::integer as d_points, sum(p.d_exact)::integer as d_exact,
             max(p.match_day) as match_day,
             (pg_catalog.array_agg(p.entry_index order by p.match_day desc))[1] as entry_index
        from per_day p
       group by p.league, p.season, p.user_id
    )
    update public.scout_season_totals s
       set total_points = s.total_points + d.d_points,
           exact_count = s.exact_count + d.d_exact,
           best_entry_index = case when d.match_day >= s.latest_match_day then d.entry_index else s.best_entry_index end,
           latest_match_day = greatest(s.latest_match_day, d.match_day)
      from delta d
     where s.league = d.league and s.season = d.season and s.user_id = d.user_id
       and (d.d_points <> 0 or d.d_exact <> 0
            or (d.match_day >= s.latest_match_day and d.entry_index <> s.best_entry_index));

    -- 4. The entries themselves.
    update public.scout_entries e
       set total_points = e.total_points + c.d_points, exact_count = e.exact_count + c.d_exact
      from pg_temp.scout_entry_changes c
     where e.id = c.entry_id and (c.d_points <> 0 or c.d_exact <> 0);
  end if;

  for i in 1 .. coalesce(pg_catalog.cardinality(v_leagues), 0) loop
    perform private.advance_scout_competitions(v_leagues[i], v_seasons[i]);
  end loop;
  return v_changed;
end
$$;
