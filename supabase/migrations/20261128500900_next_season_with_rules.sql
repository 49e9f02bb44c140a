-- Issues 32 and 34 together: a next season keeps the organiser's rules, and a notice may be any of the three kinds
-- (a result correction, a dropped plan, a next season's invitation).
alter table public.notices drop constraint notices_kind_check;
alter table public.notices
  add constraint notices_kind_check check (kind in ('result_correction', 'plan_dropped', 'next_season'));
comment on table public.notices is
  'In-app notices: a result correction that changed the player''s outcome (private.notify_result_correction), a plan dropped because its match was postponed or moved (private.fixtures_drop_broken_plans), and an invitation to a next season (private.start_next_season).';

create or replace function private.start_next_season(p_competition_id uuid, p_start_match_day integer, p_season text default null)
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
