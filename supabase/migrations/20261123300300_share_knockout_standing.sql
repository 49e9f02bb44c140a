-- The knockout standings were written twice: knockout_leaderboard_view (20261122200500) and
-- knockout_leaderboard_page (20261122300500) each had their own CASE for the Winner / Eliminated / Still In
-- labels and their own sort key (the view sorted by lower(username), username; the page by sort_name).
--
-- * private.knockout_status(knockout_winner, competition status, user, membership status): the labels, in one
--   place, used by both (game rules: Winner = the stored knockout_winner, or every active/completed member of
--   an ended competition; Eliminated; else Still In).
-- * The order is the key of user_selections_knockout_order_idx (20261122300000): not eliminated first, latest
--   knocked_out_on first, sort_name (= lower(username)), user id. The page reads it straight off that index;
--   the view's window now uses exactly that key (usernames are unique case-insensitively, so the result is the
--   same). The pages read the standings through knockout_leaderboard_page only (the competition page too); the
--   view stays for the API and is checked against the page by tests/db/results-admin.test.ts.
-- * selection_hidden in both: public.matchday_deadline_passed (20261123300000) instead of comparing inline.
-- Definitions copied from supabase/schema.sql; columns and grants unchanged.

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

create or replace view public.knockout_leaderboard_view with (security_invoker = true) as
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
  )::integer as position
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

create or replace function public.knockout_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, user_username text, status text, knocked_out_on integer,
  current_selection text, selection_hidden boolean, "position" integer
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
         ($2 + p.n)::integer
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
