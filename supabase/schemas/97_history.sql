-- History and seasons (rules file "History and seasons"; decision 030): where a player finished, their stats over
-- every competition, the archive of ended competitions (and who may read it), the next season of an ended private
-- competition with the one-tap join of its previous members, and what the creator's and admins' CSV exports read.
-- Rules: docs/game-rules.md "History and seasons".
--
-- Elsewhere: competitions.previous_competition_id (the competition a next season follows), its one-next-season
-- constraint and the name index a next season is exempt from (30_competitions_and_membership.sql); the notice kind
-- 'next_season' (90_push_and_scheduler.sql). This file puts one policy on team_selections
-- (team_selections_select_archived): the picks of an ended public competition are readable by every player.
--
-- Everything a player reads here runs with their rights (security invoker, row-level security): the stats read
-- their own rows, the archive's picks pass the picks' policies. Only starting a next season and joining one are
-- security definer (they write competitions, memberships and notices).

-- ---------------------------------------------------------------------------------------------------------
-- Where a member finished
-- ---------------------------------------------------------------------------------------------------------

-- A member's finishing position in an ended competition; null while it is played (or for a non-member).
--   season:   the stored rank (membership_ranks): equal standings share it (1st, 1st, 3rd);
--   knockout: 1 for a Winner (private.knockout_status: the stored winner, or still in when it ended), else 1 + the
--             members who did better (not out, or out on a later match day), so players out on the same match day
--             share a position, as the leaderboard groups them. Two range counts on the knockout leaderboard index.
-- The stats page's "won" (position 1) and "best finish", and the archive list's "your finish" read it.
create function public.final_position(p_competition_id uuid, p_user_id uuid) returns integer
  language sql stable
  set search_path = ''
as $$
  select case
           when c.status <> 'inactive' or c.type not in ('knockout', 'season') then null
           when c.type = 'season' then
             (select mr.rank from public.membership_ranks mr
               where mr.competition_id = c.id and mr.user_id = us.user_id)
           when private.knockout_status(c.knockout_winner, c.status, us.user_id, us.status) = 'Winner' then 1
           else 1 + (select count(*)::integer from public.user_selections o
                      where o.competition_id = c.id and (o.status = 'eliminated') = false)
                  + (select count(*)::integer from public.user_selections o
                      where o.competition_id = c.id and (o.status = 'eliminated') = true
                        and o.knocked_out_on > us.knocked_out_on)
         end
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id and us.user_id = p_user_id
   where c.id = p_competition_id
$$;

comment on function public.final_position(uuid, uuid) is
  'Where a member finished an ended competition: season rank, or knockout position (winners 1st, players out on the same match day sharing one); null while it is played.';

revoke all on function public.final_position(uuid, uuid) from public, anon;
grant execute on function public.final_position(uuid, uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- A player's stats (the /stats page): over every knockout and season competition they are in, and Scout
-- ---------------------------------------------------------------------------------------------------------

-- One row for the signed-in player (auth.uid(); nobody can ask about another player):
--   played ............ competitions entered (knockout and season, ended or not)
--   won ............... ended competitions finished first (public.final_position = 1; a shared first place counts)
--   best_finish ....... the best final_position over ended competitions (null before one ended)
--   longest_knockout_run  the most match days survived in one knockout: processed match days from the one they
--                      joined on, up to the one they went out on (not counted); null without a knockout
--   picks_won/drawn/lost  the pick record: the stored W/D/L of every membership (complete results only)
--   scout_points, scout_exact  Scout: the season totals (best entry of each match day, summed) of every season
create function public.player_stats()
returns table (
  played integer, won integer, best_finish integer, longest_knockout_run integer,
  picks_won integer, picks_drawn integer, picks_lost integer, scout_points integer, scout_exact integer
)
  language sql stable
  set search_path = ''
as $$
  with mine as (
    select us.competition_id, us.user_id, us.match_day as joined_on, us.knocked_out_on, us.wins, us.draws,
           us.losses, c.type, c.status as competition_status
      from public.user_selections us
      join public.competitions c on c.id = us.competition_id
     where us.user_id = (select auth.uid()) and c.type in ('knockout', 'season')
  ), finishes as (
    select public.final_position(m.competition_id, m.user_id) as position
      from mine m
     where m.competition_status = 'inactive'
  ), runs as (
    select (select count(*)::integer from public.competition_matchday_results r
             where r.competition_id = m.competition_id and r.match_day >= m.joined_on
               and (m.knocked_out_on is null or r.match_day < m.knocked_out_on)) as survived
      from mine m
     where m.type = 'knockout'
  ), scout as (
    select coalesce(sum(t.total_points), 0)::integer as points, coalesce(sum(t.exact_count), 0)::integer as exact
      from public.scout_season_totals t
     where t.user_id = (select auth.uid())
  )
  select (select count(*)::integer from mine),
         (select count(*)::integer from finishes f where f.position = 1),
         (select min(f.position) from finishes f),
         (select max(r.survived) from runs r),
         (select coalesce(sum(m.wins), 0)::integer from mine m),
         (select coalesce(sum(m.draws), 0)::integer from mine m),
         (select coalesce(sum(m.losses), 0)::integer from mine m),
         s.points,
         s.exact
    from scout s
   where (select auth.uid()) is not null
$$;

comment on function public.player_stats() is
  'The signed-in player''s stats: played, won, best finish, longest knockout run, pick record (W/D/L), Scout points and exact scores.';

-- The pick record per football season (the stats page's chart and its table), oldest season first.
create function public.player_season_records()
returns table (season text, competitions integer, won integer, drawn integer, lost integer)
  language sql stable
  set search_path = ''
as $$
  select c.season, count(*)::integer, sum(us.wins)::integer, sum(us.draws)::integer, sum(us.losses)::integer
    from public.user_selections us
    join public.competitions c on c.id = us.competition_id
   where us.user_id = (select auth.uid()) and c.type in ('knockout', 'season')
   group by c.season
   order by min(c.start_date), c.season
$$;

-- The teams the signed-in player picked most (picks of match days whose deadline has passed: a pick that can still
-- change is not counted yet), most first, then by name; at most 20.
create function public.player_top_teams(p_limit integer default 5)
returns table (team text, picks integer)
  language sql stable
  set search_path = ''
as $$
  select ts.selected_team, count(*)::integer
    from public.team_selections ts
    join public.competitions c on c.id = ts.competition_id
   where ts.user_id = (select auth.uid())
     and public.matchday_deadline_passed(c.league, c.season, ts.match_day)
   group by ts.selected_team
   order by count(*) desc, ts.selected_team
   limit greatest(least(coalesce(p_limit, 5), 20), 0)
$$;

revoke all on function public.player_stats() from public, anon;
grant execute on function public.player_stats() to authenticated, service_role;
revoke all on function public.player_season_records() from public, anon;
grant execute on function public.player_season_records() to authenticated, service_role;
revoke all on function public.player_top_teams(integer) from public, anon;
grant execute on function public.player_top_teams(integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The archive of ended competitions
-- ---------------------------------------------------------------------------------------------------------

-- Who may read an ended competition in the archive: a knockout or season competition that has ended (inactive),
-- public, or private with the caller among its members. The one home of the rule: the archive list, the
-- competition page's archive and the picks policy below read it. No SET clause: the policy calls it for every pick
-- it checks, and a SET would change the configuration on each call (every name is schema-qualified; it runs with the
-- caller's rights).
create function public.in_archive(p_competition_id uuid) returns boolean
  language sql stable
as $$
  select exists (
    select 1 from public.competitions c
     where c.id = p_competition_id
       and c.type in ('knockout', 'season')
       and c.status = 'inactive'
       and (c.visibility = 'public'
            or exists (select 1 from public.user_selections us
                        where us.competition_id = c.id and us.user_id = (select auth.uid())))
  )
$$;

comment on function public.in_archive(uuid) is
  'An ended knockout or season competition the caller may read in the archive: public, or private and they were a member.';

revoke all on function public.in_archive(uuid) from public, anon;
grant execute on function public.in_archive(uuid) to authenticated, service_role;

-- An ended competition stays readable, every match day's picks included (rules file): the picks of a competition in
-- the caller's archive, of match days whose deadline has passed, are readable. Members read them already
-- (team_selections_select_revealed); this adds the ended public competitions for every player. Never a pick whose
-- deadline has not passed.
create policy team_selections_select_archived on public.team_selections
  for select to authenticated
  using (
    public.in_archive(competition_id)
    and exists (select 1 from public.competitions c
                 where c.id = competition_id and public.matchday_deadline_passed(c.league, c.season, match_day))
  );

-- The archive list (/competitions?status=ended): the caller's archive, most recently ended first (the time its last
-- match day was processed), a page at a time; total = every competition in it.
create function public.ended_competitions(p_offset integer, p_limit integer)
returns table (
  id uuid, name text, type text, league text, season text, visibility text, player_count integer,
  last_match_day integer, ended_at timestamptz, was_member boolean, my_finish integer, total integer
)
  language sql stable
  set search_path = ''
as $$
  select a.id, a.name, a.type, a.league, a.season, a.visibility, a.player_count, a.current_match_day, a.ended_at,
         a.was_member, public.final_position(a.id, (select auth.uid())), a.total
    from (
      select c.id, c.name, c.type, c.league, c.season, c.visibility, c.player_count, c.current_match_day,
             (select max(r.processed_at) from public.competition_matchday_results r where r.competition_id = c.id)
               as ended_at,
             exists (select 1 from public.user_selections us
                      where us.competition_id = c.id and us.user_id = (select auth.uid())) as was_member,
             (count(*) over ())::integer as total
        from public.competitions c
       where c.status = 'inactive' and c.type in ('knockout', 'season') and public.in_archive(c.id)
    ) a
   order by a.ended_at desc nulls last, a.name, a.id
  offset greatest(coalesce(p_offset, 0), 0)
   limit greatest(least(coalesce(p_limit, 9), 100), 0)
$$;

revoke all on function public.ended_competitions(integer, integer) from public, anon;
grant execute on function public.ended_competitions(integer, integer) to authenticated, service_role;

-- Every pick the caller may see of a competition's match days whose deadline has passed, with its match and outcome
-- (private.pick_outcome_now: win | draw | loss | postponed | not_started) and the player's name as the leaderboards
-- show it (player_names). Never a pick of a match day whose deadline has not passed, also for an admin (whose
-- policy reads every pick): what the archive shows and picks.csv exports. Row-level security decides the rest
-- (members, the archive, admins). No SET clause, so the planner inlines it: a filter on match_day uses the picks'
-- index, and a cursor over it streams rows as they are read.
create function public.revealed_picks(p_competition_id uuid)
returns table (
  match_day integer, user_id uuid, username text, sort_name text, team text, home_team text, away_team text,
  home_score integer, away_score integer, outcome text
)
  language sql stable
as $$
  select ts.match_day, ts.user_id, pn.username, us.sort_name, ts.selected_team, f.home_team, f.away_team,
         case when f.status = 'complete' then f.home_score end, case when f.status = 'complete' then f.away_score end,
         private.pick_outcome_now(ts.selected_team, f)
    from public.team_selections ts
    join public.competitions c on c.id = ts.competition_id
    join public.user_selections us on us.user_id = ts.user_id and us.competition_id = ts.competition_id
    join public.fixtures f on f.id = ts.fixture_id
    left join public.player_names pn on pn.id = ts.user_id
   where ts.competition_id = p_competition_id
     and public.matchday_deadline_passed(c.league, c.season, ts.match_day)
$$;

comment on function public.revealed_picks(uuid) is
  'The picks of a competition''s match days whose deadline has passed that the caller may read, with match, outcome and name: the archive and picks.csv.';

revoke all on function public.revealed_picks(uuid) from public, anon;
grant execute on function public.revealed_picks(uuid) to authenticated, service_role;

-- May the caller download this competition's standings and picks as CSV? Its creator and admins (rules file).
create function public.can_export_competition(p_competition_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select exists (
    select 1 from public.competitions c
     where c.id = p_competition_id and c.type in ('knockout', 'season')
       and (c.created_by = (select auth.uid()) or (select private.is_admin()))
  )
$$;

revoke all on function public.can_export_competition(uuid) from public, anon;
grant execute on function public.can_export_competition(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The next season of an ended private competition
-- ---------------------------------------------------------------------------------------------------------

-- May the caller start this competition's next season? Its creator, once the private competition has ended and
-- while it has no next season yet.
create function private.may_start_next_season(p_competition_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select exists (
    select 1 from public.competitions c
     where c.id = p_competition_id and c.type in ('knockout', 'season') and c.visibility = 'private'
       and c.status = 'inactive' and c.created_by = (select auth.uid())
       and not exists (select 1 from public.competitions n where n.previous_competition_id = c.id)
  )
$$;

-- Is the caller invited to this competition, a next season? They were a member of the season before it (an
-- invitation never lapses: joining still needs registration to be open).
create function private.invited_to_next_season(p_competition_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select exists (
    select 1 from public.competitions c
      join public.user_selections us on us.competition_id = c.previous_competition_id
     where c.id = p_competition_id and us.user_id = (select auth.uid())
  )
$$;

revoke all on function private.may_start_next_season(uuid) from public, anon;
grant execute on function private.may_start_next_season(uuid) to authenticated, service_role;
revoke all on function private.invited_to_next_season(uuid) from public, anon;
grant execute on function private.invited_to_next_season(uuid) to authenticated, service_role;

-- The match days a next season may start on, for the caller who may start it (else none): those open for selection
-- (public.selection_open) of the competition's league, in its own season while that has one, else in the season of
-- the creation list whose first open match day comes first (a season competition ends with its football season).
create function private.next_season_start_days(p_competition_id uuid)
returns table (season text, match_day integer, deadline timestamptz)
  language sql stable
  security definer
  set search_path = ''
as $$
  with c as (
    select c.league, c.season, c.total_match_days from public.competitions c
     where c.id = p_competition_id and private.may_start_next_season(c.id)
  ), open_days as (
    select s.season, d.match_day, public.matchday_deadline(c.league, s.season, d.match_day) as deadline,
           s.season = c.season as same_season
      from c
     cross join pg_catalog.unnest(private.competition_seasons()) as s (season)
     cross join pg_catalog.generate_series(1, c.total_match_days) as d (match_day)
     where public.selection_open(c.league, s.season, d.match_day)
  ), chosen as (
    select o.season from open_days o order by o.same_season desc, o.deadline, o.season limit 1
  )
  select o.season, o.match_day, o.deadline
    from open_days o join chosen using (season)
   order by o.match_day
$$;

create function public.next_season_start_days(p_competition_id uuid)
returns table (season text, match_day integer, deadline timestamptz)
  language sql stable
  set search_path = ''
as $$
  select * from private.next_season_start_days(p_competition_id)
$$;

revoke all on function private.next_season_start_days(uuid) from public, anon;
grant execute on function private.next_season_start_days(uuid) to authenticated, service_role;
revoke all on function public.next_season_start_days(uuid) from public, anon;
grant execute on function public.next_season_start_days(uuid) to authenticated, service_role;

-- "Start next season" (one transaction): a new private competition with the same name, type, league, prize and
-- rules, on p_start_match_day of p_season (null: the same season), a new registration key (the competitions
-- trigger), the creator a member as at creation; every other member of the ended competition gets a notice with a
-- one-tap Join (and a push when notifications are on). Nobody else is joined: they join with public.join_next_season.
-- Locks the ended competition first (two presses: one next season). Answers (code, competition_id):
--   started (the new id) | already_started (the next season's id) | not_found.
-- Refusals: 42501 not signed in / not the creator of an ended private competition; P0001 with the form's message
-- for a season outside the creation list or a start match day that is not open for selection.
create function private.start_next_season(p_competition_id uuid, p_start_match_day integer, p_season text default null)
returns table (code text, competition_id uuid)
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  v_uid uuid := (select auth.uid());
  v_prev public.competitions%rowtype;
  v_season text;
  v_next uuid;
  v_creator text;
begin
  if v_uid is null then
    raise exception using errcode = '42501', message = 'You must be logged in.';
  end if;
  perform private.lock_competition(p_competition_id);
  select * into v_prev from public.competitions c where c.id = p_competition_id;
  if not found then
    return query select 'not_found'::text, null::uuid;
    return;
  end if;
  select n.id into v_next from public.competitions n where n.previous_competition_id = p_competition_id;
  if v_next is not null and v_prev.created_by = v_uid then
    return query select 'already_started'::text, v_next;
    return;
  end if;
  if not private.may_start_next_season(p_competition_id) then
    raise exception using errcode = '42501',
      message = 'Only the creator of an ended private competition can start its next season.';
  end if;

  v_season := coalesce(nullif(pg_catalog.btrim(p_season), ''), v_prev.season);
  if not v_season = any (private.competition_seasons()) then
    raise exception using errcode = 'P0001', message = 'Please choose a season from the list.';
  end if;
  if p_start_match_day is null or p_start_match_day < 1 or p_start_match_day > v_prev.total_match_days then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a positive whole number.';
  end if;
  if not public.selection_open(v_prev.league, v_season, p_start_match_day) then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a match day that has not started yet.';
  end if;

  -- The one place a next season copies its competition: every column the organiser chose.
  insert into public.competitions as c
    (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day, status,
     registration_status, visibility, prize, created_by, previous_competition_id,
     -- the organiser's rules (decision 028), as they were
     lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker)
  select v_prev.name, v_prev.type, v_prev.league, v_season,
         greatest(private.local_today(v_uid), (m.first_kickoff_time at time zone 'UTC')::date),
         v_prev.total_match_days, p_start_match_day, p_start_match_day, 'active', 'open', 'private', v_prev.prize,
         v_uid, v_prev.id,
         v_prev.lives, v_prev.draw_rule, v_prev.missed_pick_rule, v_prev.everyone_out_rule, v_prev.win_points,
         v_prev.draw_points, v_prev.loss_points, v_prev.joker
    from public.matchdays m
   where m.league = v_prev.league and m.season = v_season and m.match_day = p_start_match_day
  returning c.id into v_next;

  -- The creator plays in their own competition, as at creation (private.create_private_competition).
  insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
  values (v_uid, v_next, v_prev.league, v_season, p_start_match_day, 'active')
  on conflict (user_id, competition_id) do nothing;

  select pn.username into v_creator from public.player_names pn where pn.id = v_uid;
  with invited as (
    insert into public.notices (user_id, kind, body, params, link, created_at)
    select us.user_id, 'next_season',
           pg_catalog.format('%s started the next season of %s (%s %s, from Match Day %s). Join with one tap.',
                             coalesce(v_creator, 'The organiser'), v_prev.name, v_prev.league, v_season,
                             p_start_match_day),
           pg_catalog.jsonb_build_object('competition_id', v_next, 'previous_competition_id', v_prev.id),
           '/competition/' || v_next, public.app_now()
      from public.user_selections us
     where us.competition_id = v_prev.id and us.user_id <> v_uid
    returning user_id, body, link
  )
  insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
  select i.user_id, s.id, 'notice', 'FootyCoach', i.body, i.link, public.app_now()
    from invited i
    join public.profiles p on p.id = i.user_id and p.notifications_enabled
    join public.push_subscriptions s on s.user_id = i.user_id;

  return query select 'started'::text, v_next;
end
$$;

create function public.start_next_season(p_competition_id uuid, p_start_match_day integer, p_season text default null)
returns table (code text, competition_id uuid)
  language sql
  set search_path = ''
as $$
  select * from private.start_next_season(p_competition_id, p_start_match_day, p_season)
$$;

revoke all on function private.start_next_season(uuid, integer, text) from public, anon;
grant execute on function private.start_next_season(uuid, integer, text) to authenticated, service_role;
revoke all on function public.start_next_season(uuid, integer, text) from public, anon;
grant execute on function public.start_next_season(uuid, integer, text) to authenticated, service_role;

-- The one-tap Join of an invited player (a member of the season before): joins without typing the registration key,
-- through private.join_competition and so under every rule of joining (registration open, one membership, a
-- profile). Their invitation notice is then marked read. Codes: those of join_competition, or not_invited.
create function private.join_next_season(p_competition_id uuid) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_code text;
begin
  if v_uid is null then
    return 'not_signed_in';
  end if;
  if not private.invited_to_next_season(p_competition_id) then
    return 'not_invited';
  end if;
  v_code := private.join_competition(
    p_competition_id, (select c.registration_key from public.competitions c where c.id = p_competition_id));
  if v_code in ('joined', 'already_joined') then
    update public.notices n set read_at = public.app_now()
     where n.user_id = v_uid and n.kind = 'next_season' and n.read_at is null
       and n.params ->> 'competition_id' = p_competition_id::text;
  end if;
  return v_code;
end
$$;

create function public.join_next_season(p_competition_id uuid) returns text
  language sql
  set search_path = ''
as $$
  select private.join_next_season(p_competition_id)
$$;

revoke all on function private.join_next_season(uuid) from public, anon;
grant execute on function private.join_next_season(uuid) to authenticated, service_role;
revoke all on function public.join_next_season(uuid) from public, anon;
grant execute on function public.join_next_season(uuid) to authenticated, service_role;

-- What the competition page shows of history and seasons, in one row for the caller: whether the competition is in
-- their archive, whether they may export it or start its next season, its next season (when started), and whether
-- they are invited to it (a member of the season before).
create function public.competition_history(p_competition_id uuid)
returns table (
  in_archive boolean, can_export boolean, can_start_next_season boolean, next_competition_id uuid,
  next_competition_name text, invited boolean
)
  language sql stable
  set search_path = ''
as $$
  select public.in_archive(c.id), public.can_export_competition(c.id), private.may_start_next_season(c.id),
         n.id, n.name, private.invited_to_next_season(c.id)
    from public.competitions c
    left join public.competitions n on n.previous_competition_id = c.id
   where c.id = p_competition_id
$$;

revoke all on function public.competition_history(uuid) from public, anon;
grant execute on function public.competition_history(uuid) to authenticated, service_role;
