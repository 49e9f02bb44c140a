-- Deep season leaderboard pages start at the right rank instead of skipping from the top.
--
-- In the season order (points, goal difference, goals for, wins desc, then username) the members of one
-- stored rank form a contiguous block that starts exactly at position = rank (rank = 1 + members strictly
-- better). So the page at offset O starts in the block with the greatest rank <= O + 1: that rank is one
-- backward step on (competition_id, rank), its stats tuple is a lookup, and the page is an index seek on the
-- season order index from that tuple, skipping only O + 1 - rank rows inside the block. Right after a results
-- round (dead index entries, heap not yet all-visible) this avoids walking tens of thousands of entries.
-- Same columns, order and results as before (20261122300500_create_leaderboard_pages.sql).

-- Partial (rank >= 1 always holds, see membership_ranks_rank_check): only queries that state the predicate
-- use it, i.e. the seek below; lookups by competition (views, 20261122200500) stay on the primary key.
create index membership_ranks_competition_rank_idx on public.membership_ranks (competition_id, rank)
  where rank >= 1;

create or replace function public.season_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
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
