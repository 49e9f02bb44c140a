-- Scout leaderboards: entries (or players) equal on total points and exact count share a rank (issue 22 item 8:
-- before any result, 71 zero-point entries were ranked 1st to 71st). Rows keep their order (then earliest
-- created); only the rank shown changes: 1 + the number of strictly better rows.

create or replace function private.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.rank() over (order by e.total_points desc, e.exact_count desc),
         e.user_id, coalesce(p.display_name, p.username), e.total_points, e.exact_count, e.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) e
    join public.profiles p on p.id = e.user_id
   order by e.total_points desc, e.exact_count desc, e.created_at, e.id
$$;

create or replace function private.get_scout_leaderboard_matchday_player(p_league text, p_season text, p_match_day integer, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select 1 + (select count(*) from public.scout_entries o
               where o.league = p_league and o.season = p_season and o.match_day = p_match_day
                 and (o.total_points > b.total_points
                      or (o.total_points = b.total_points and o.exact_count > b.exact_count))),
         b.user_id, private.scout_display_name(b.user_id), b.total_points, b.exact_count, b.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day and e.user_id = p_user_id
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit 1) b
$$;

create or replace function private.get_scout_leaderboard_season(p_league text, p_season text, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.rank() over (order by s.total_points desc, s.exact_count desc),
         s.user_id, coalesce(p.display_name, p.username), s.total_points, s.exact_count, s.best_entry_index
    from (select * from public.scout_season_totals s
           where s.league = p_league and s.season = p_season
           order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) s
    join public.profiles p on p.id = s.user_id
   order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id
$$;

create or replace function private.get_scout_leaderboard_season_player(p_league text, p_season text, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select 1 + (select count(*) from public.scout_season_totals o
               where o.league = p_league and o.season = p_season
                 and (o.total_points > s.total_points
                      or (o.total_points = s.total_points and o.exact_count > s.exact_count))),
         s.user_id, private.scout_display_name(s.user_id), s.total_points, s.exact_count, s.best_entry_index
    from public.scout_season_totals s
   where s.league = p_league and s.season = p_season and s.user_id = p_user_id
$$;
