-- Live match day (decision 022): set_fixture_live_score (admin), if_it_ended_now and match_day_pick_shares.

-- ---------------------------------------------------------------------------------------------------------
-- Live match day (decision 022): an admin's live score, and "if it ended now" (provisional, never a result).
-- ---------------------------------------------------------------------------------------------------------

-- An admin enters a running score without completing the match (as the feed's IN_PLAY/PAUSED does): only on a
-- pending fixture whose kickoff has passed; p_status IN_PLAY or PAUSED (half-time), or null to clear it. It
-- writes no result, no history and processes nothing: final results still come only from complete fixtures.
-- Answers 'saved' or 'not_found'; bad input P0001 with the form's words.
create function private.set_fixture_live_score(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                               p_status text default 'IN_PLAY') returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
begin
  perform private.require_admin();
  select * into v_f from public.fixtures f where f.id = p_fixture_id for update;
  if not found then
    return 'not_found';
  end if;
  if v_f.status <> 'pending' then
    raise exception using errcode = 'P0001', message = 'A live score can be entered only for a fixture still to be completed.';
  end if;
  if v_f.kickoff_time > public.app_now() then
    raise exception using errcode = 'P0001', message = 'A live score can be entered only after kickoff.';
  end if;
  if p_status is null then
    update public.fixtures f
       set live_status = null, live_home_score = null, live_away_score = null, live_updated_at = public.app_now()
     where f.id = p_fixture_id;
    return 'saved';
  end if;
  if p_status not in ('IN_PLAY', 'PAUSED') then
    raise exception using errcode = 'P0001', message = 'Unknown live state.';
  end if;
  if p_home_score is null or p_away_score is null
     or p_home_score not between 0 and 30 or p_away_score not between 0 and 30 then
    raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
  end if;
  update public.fixtures f
     set live_status = p_status, live_home_score = p_home_score, live_away_score = p_away_score,
         live_updated_at = public.app_now()
   where f.id = p_fixture_id;
  return 'saved';
end
$$;
revoke all on function private.set_fixture_live_score(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function private.set_fixture_live_score(bigint, integer, integer, text) to authenticated, service_role;

create function public.set_fixture_live_score(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                              p_status text default 'IN_PLAY') returns text
  language sql
  set search_path = ''
as $$
  select private.set_fixture_live_score(p_fixture_id, p_home_score, p_away_score, p_status)
$$;
revoke all on function public.set_fixture_live_score(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function public.set_fixture_live_score(bigint, integer, integer, text) to authenticated, service_role;

-- A pick's outcome if its match ended now: the final score of a complete fixture, else the live score of one in
-- play: win | draw | loss | postponed | not_started (no score yet) | no_pick. The one home of this mapping.
create function private.pick_outcome_now(p_team text, p_fixture public.fixtures) returns text
  language sql immutable
  set search_path = ''
as $$
  select case
    when p_team is null then 'no_pick'
    when (p_fixture).status = 'postponed' then 'postponed'
    when (p_fixture).status = 'pending' and (p_fixture).live_status is null then 'not_started'
    else (
      select case when t.mine > t.theirs then 'win' when t.mine = t.theirs then 'draw' else 'loss' end
        from (select case when p_team = (p_fixture).home_team then g.h else g.a end as mine,
                     case when p_team = (p_fixture).home_team then g.a else g.h end as theirs
                from (select case when (p_fixture).status = 'complete' then (p_fixture).home_score
                                  else (p_fixture).live_home_score end as h,
                             case when (p_fixture).status = 'complete' then (p_fixture).away_score
                                  else (p_fixture).live_away_score end as a) g) t)
  end
$$;
revoke all on function private.pick_outcome_now(text, public.fixtures) from public, anon;
grant execute on function private.pick_outcome_now(text, public.fixtures) to authenticated, service_role;

-- "If it ended now" for the caller, one row per competition of theirs (all, or p_competition_id) whose current
-- match day is being played: its deadline has passed and it is not processed yet; in_play says whether one of its
-- fixtures is in play or complete (pages show the provisional view only then, and listen for changes from the
-- deadline on). The rules are process_competition's, applied to the live and final scores:
-- knockout: a win or a postponed fixture -> through; a draw, a loss or no pick -> out; if every remaining player
-- would be out, nobody is (rolled_over). A pick whose match has not started counts as not out yet (waiting).
-- season: points 3/1/0 for the pick's win/draw/loss, nothing otherwise. still_in / remaining: knockout players
-- through (or waiting) if it ended now / active before the match day. Only the caller's own line and counts leave
-- this function (no other player's pick).
create function private.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer)
  language sql stable security definer
  set search_path = ''
as $$
  with c as (
    select c.id, c.type, c.league, c.season, c.current_match_day as md, me.status as my_status,
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
  p as (
    select c.id as competition_id, us.user_id, us.status, ts.selected_team as team, f as fx,
           private.pick_outcome_now(ts.selected_team, f) as o
      from c
      join public.user_selections us
        on us.competition_id = c.id
       and (us.status = 'active' or us.user_id = (select auth.uid()))
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = c.md
      left join public.fixtures f on f.id = ts.fixture_id
     where c.type = 'knockout' or us.user_id = (select auth.uid())
  ),
  k as (
    select p.competition_id,
           count(*) filter (where p.o in ('draw', 'loss', 'no_pick'))::integer as out_count,
           count(*)::integer as remaining
      from p
     where p.status = 'active'
     group by p.competition_id
  )
  select c.id, c.type, c.league, c.season, c.md, c.in_play, p.team,
         case when p.team = (p.fx).home_team then (p.fx).away_team else (p.fx).home_team end,
         case when (p.fx).status = 'complete' then
                case when p.team = (p.fx).home_team then (p.fx).home_score else (p.fx).away_score end
              else case when p.team = (p.fx).home_team then (p.fx).live_home_score else (p.fx).live_away_score end end,
         case when (p.fx).status = 'complete' then
                case when p.team = (p.fx).home_team then (p.fx).away_score else (p.fx).home_score end
              else case when p.team = (p.fx).home_team then (p.fx).live_away_score else (p.fx).live_home_score end end,
         case when p.team is null then null
              when (p.fx).status in ('complete', 'postponed') then (p.fx).status
              when (p.fx).live_status = 'IN_PLAY' then 'in_play'
              when (p.fx).live_status = 'PAUSED' then 'paused'
              else 'not_started' end,
         case when c.type = 'season' then p.o
              when c.my_status <> 'active' then 'not_playing'
              when p.o in ('win', 'postponed') then 'through'
              when p.o = 'not_started' then 'waiting'
              when k.out_count = k.remaining then 'rolled_over'
              else 'out' end,
         case when c.type = 'season' then case p.o when 'win' then 3 when 'draw' then 1 when 'loss' then 0 end end,
         case when c.type = 'knockout' then
                case when k.out_count = k.remaining then k.remaining else k.remaining - k.out_count end end,
         case when c.type = 'knockout' then k.remaining end
    from c
    join p on p.competition_id = c.id and p.user_id = (select auth.uid())
    left join k on k.competition_id = c.id
$$;
revoke all on function private.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function private.if_it_ended_now(uuid) to authenticated, service_role;

create function public.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer)
  language sql stable
  set search_path = ''
as $$
  select * from private.if_it_ended_now(p_competition_id)
$$;
revoke all on function public.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function public.if_it_ended_now(uuid) to authenticated, service_role;

-- The current match day's picks per team, once they are revealed (after the deadline, to members: the hidden-picks
-- rule, private.can_see_match_day_picks); before that no row, not even the caller's own pick. Runs as the caller:
-- row-level security reads team_selections.
create function public.match_day_pick_shares(p_competition_id uuid)
  returns table (team text, picks integer, share integer, total integer)
  language sql stable
  set search_path = ''
as $$
  select ts.selected_team, count(*)::integer,
         round(100.0 * count(*) / sum(count(*)) over ())::integer,
         (sum(count(*)) over ())::integer
    from public.competitions c
    join public.team_selections ts on ts.competition_id = c.id and ts.match_day = c.current_match_day
   where c.id = p_competition_id
     and private.can_see_match_day_picks(c.id, c.current_match_day)
   group by ts.selected_team
   order by count(*) desc, ts.selected_team
$$;
revoke all on function public.match_day_pick_shares(uuid) from public, anon, authenticated;
grant execute on function public.match_day_pick_shares(uuid) to authenticated, service_role;
