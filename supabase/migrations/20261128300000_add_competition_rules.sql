-- The organiser's rules (decision 028; rules file "The organiser's rules"): a competition's rules are columns of
-- the competition, with the old rules as defaults so every existing competition plays exactly as before; creation
-- (private and admin) takes them (p_rules: the form's fields) and every player now chooses type, league and season;
-- the creator changes them until the start match day's deadline (update_competition_rules); the create forms offer
-- the open match days of each league (creation_match_days).

alter table public.competitions
  add column lives integer not null default 1,
  add column draw_rule text not null default 'costs-life',
  add column missed_pick_rule text not null default 'costs-life',
  add column everyone_out_rule text not null default 'rollover',
  add column win_points integer not null default 3,
  add column draw_points integer not null default 1,
  add column loss_points integer not null default 0,
  add column joker boolean not null default false,
  add constraint competitions_lives_range check (lives between 1 and 3),
  add constraint competitions_draw_rule_check check (draw_rule in ('costs-life', 'through')),
  add constraint competitions_missed_pick_rule_check check (missed_pick_rule in ('costs-life', 'auto')),
  add constraint competitions_everyone_out_rule_check check (everyone_out_rule in ('rollover', 'joint')),
  add constraint competitions_points_range check (
    win_points between 0 and 10 and draw_points between 0 and 10 and loss_points between 0 and 10
  ),
  add constraint competitions_points_order check (win_points > draw_points and draw_points >= loss_points);

grant select (lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker)
  on table public.competitions to authenticated;
grant insert (lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker)
  on table public.competitions to authenticated;
grant update (lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker)
  on table public.competitions to authenticated;

create function private.competition_rules_of(
  p_type text, p_rules jsonb,
  out lives integer, out draw_rule text, out missed_pick_rule text, out everyone_out_rule text,
  out win_points integer, out draw_points integer, out loss_points integer, out joker boolean
)
  language plpgsql immutable
  set search_path = ''
as $$
declare
  v_rules jsonb := coalesce(p_rules, '{}'::jsonb);
  v_text text;
begin
  if pg_catalog.jsonb_typeof(v_rules) <> 'object' then
    raise exception using errcode = '22023', message = 'The rules must be a JSON object.';
  end if;
  v_text := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'lives'), ''), '1');
  if v_text !~ '^[123]$' then
    raise exception using errcode = 'P0001', message = 'Lives must be 1, 2 or 3.';
  end if;
  lives := v_text::integer;
  draw_rule := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'draws'), ''), 'costs-life');
  if draw_rule not in ('costs-life', 'through') then
    raise exception using errcode = 'P0001', message = 'Draws must be "A draw costs a life" or "A draw is enough".';
  end if;
  missed_pick_rule := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'missedPick'), ''), 'costs-life');
  if missed_pick_rule not in ('costs-life', 'auto') then
    raise exception using errcode = 'P0001', message = 'Missed pick must be "No pick costs a life" or "Auto-pick".';
  end if;
  everyone_out_rule := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'everyoneOut'), ''), 'rollover');
  if everyone_out_rule not in ('rollover', 'joint') then
    raise exception using errcode = 'P0001', message = 'If everyone is out must be "Roll-over" or "Joint winners".';
  end if;
  v_text := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'winPoints'), ''), '3');
  if v_text !~ '^[0-9]{1,2}$' or v_text::integer > 10 then
    raise exception using errcode = 'P0001', message = 'Points must be whole numbers from 0 to 10.';
  end if;
  win_points := v_text::integer;
  v_text := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'drawPoints'), ''), '1');
  if v_text !~ '^[0-9]{1,2}$' or v_text::integer > 10 then
    raise exception using errcode = 'P0001', message = 'Points must be whole numbers from 0 to 10.';
  end if;
  draw_points := v_text::integer;
  v_text := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'lossPoints'), ''), '0');
  if v_text !~ '^[0-9]{1,2}$' or v_text::integer > 10 then
    raise exception using errcode = 'P0001', message = 'Points must be whole numbers from 0 to 10.';
  end if;
  loss_points := v_text::integer;
  if not (win_points > draw_points and draw_points >= loss_points) then
    raise exception using errcode = 'P0001',
      message = 'Points for a win must be more than for a draw, and a draw at least as many as a loss.';
  end if;
  v_text := coalesce(nullif(pg_catalog.btrim(v_rules ->> 'joker'), ''), 'off');
  if v_text not in ('on', 'off', 'true', 'false') then
    raise exception using errcode = 'P0001', message = 'Joker must be on or off.';
  end if;
  joker := v_text in ('on', 'true');

  if p_type is distinct from 'knockout' then
    lives := 1;
    draw_rule := 'costs-life';
    missed_pick_rule := 'costs-life';
    everyone_out_rule := 'rollover';
  end if;
  if p_type is distinct from 'season' then
    win_points := 3;
    draw_points := 1;
    loss_points := 0;
    joker := false;
  end if;
end
$$;

revoke all on function private.competition_rules_of(text, jsonb) from public, anon, authenticated;

drop function public.create_private_competition(text, text, text, text, date, integer);
drop function private.create_private_competition(text, text, text, text, date, integer);
drop function public.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text);
drop function private.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text);
drop function private.create_competition(text, text, text, text, date, integer, text, text, uuid, text, text, text, text);

create function private.create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_visibility text, p_prize text, p_created_by uuid,
  p_prize_title text default null, p_prize_description text default null, p_prize_terms_url text default null,
  p_prize_image_url text default null, p_rules jsonb default null
) returns table (id uuid, registration_key text)
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  v_name text := pg_catalog.btrim(coalesce(p_name, ''));
  v_type text := pg_catalog.btrim(p_type);
  v_league text := pg_catalog.btrim(p_league);
  v_season text := pg_catalog.btrim(p_season);
  v_prize text := nullif(pg_catalog.btrim(coalesce(p_prize, '')), '');
  v_prize_title text := nullif(pg_catalog.btrim(coalesce(p_prize_title, '')), '');
  v_prize_description text := nullif(pg_catalog.btrim(coalesce(p_prize_description, '')), '');
  v_prize_terms_url text := nullif(pg_catalog.btrim(coalesce(p_prize_terms_url, '')), '');
  v_prize_image_url text := nullif(pg_catalog.btrim(coalesce(p_prize_image_url, '')), '');
  v_total integer := public.default_total_match_days();
  v_constraint text;
  v_rules record;
begin
  if v_name = '' or coalesce(v_type, '') = '' or coalesce(v_league, '') = '' or coalesce(v_season, '') = ''
     or p_start_date is null or p_start_match_day is null then
    raise exception using errcode = 'P0001', message = 'Please fill in all required fields.';
  end if;
  if p_visibility = 'public' and not v_type = any (private.admin_competition_types()) then
    raise exception using errcode = 'P0001', message = 'Type must be knockout, season or scout.';
  end if;
  if p_visibility <> 'public' and not v_type = any (private.competition_types()) then
    raise exception using errcode = 'P0001', message = 'Type must be knockout or season.';
  end if;
  if not v_league = any (private.competition_leagues()) then
    raise exception using errcode = 'P0001', message = 'Please choose a league from the list.';
  end if;
  if not v_season = any (private.competition_seasons()) then
    raise exception using errcode = 'P0001', message = 'Please choose a season from the list.';
  end if;
  if pg_catalog.char_length(v_name) > 100 then
    raise exception using errcode = 'P0001', message = 'Competition name must be at most 100 characters.';
  end if;
  if pg_catalog.char_length(v_prize) > 500 then
    raise exception using errcode = 'P0001', message = 'Prize must be at most 500 characters.';
  end if;
  if v_type <> 'scout' and (v_prize_title is not null or v_prize_description is not null
                            or v_prize_terms_url is not null or v_prize_image_url is not null) then
    raise exception using errcode = 'P0001', message = 'Prize details are for Scout competitions only.';
  end if;
  if pg_catalog.char_length(v_prize_title) > 200 then
    raise exception using errcode = 'P0001', message = 'Prize title must be at most 200 characters.';
  end if;
  if pg_catalog.char_length(v_prize_description) > 4000 then
    raise exception using errcode = 'P0001', message = 'Prize description must be at most 4000 characters.';
  end if;
  if pg_catalog.char_length(v_prize_terms_url) > 2000 or not private.is_https_url(v_prize_terms_url) then
    raise exception using errcode = 'P0001', message = 'Prize terms URL must be an https:// address.';
  end if;
  if pg_catalog.char_length(v_prize_image_url) > 2000 or not private.is_https_url(v_prize_image_url) then
    raise exception using errcode = 'P0001', message = 'Prize image URL must be an https:// address.';
  end if;
  if p_start_match_day < 1 or p_start_match_day > v_total then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a positive whole number.';
  end if;
  if p_start_date < private.local_today(p_created_by) then
    raise exception using errcode = 'P0001', message = 'Start date must be today or a future date.';
  end if;
  if not public.selection_open(v_league, v_season, p_start_match_day) then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a match day that has not started yet.';
  end if;
  if exists (select 1 from public.competitions c
              where pg_catalog.lower(pg_catalog.btrim(c.name)) = pg_catalog.lower(v_name) and c.type = v_type) then
    raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
  end if;
  select * into v_rules from private.competition_rules_of(v_type, p_rules);

  begin
    return query
      insert into public.competitions as c
        (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day,
         status, registration_status, visibility, prize, prize_title, prize_description, prize_terms_url,
         prize_image_url, created_by, lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points,
         draw_points, loss_points, joker)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, public.default_prize()), v_prize_title,
              v_prize_description, v_prize_terms_url, v_prize_image_url, p_created_by, v_rules.lives,
              v_rules.draw_rule, v_rules.missed_pick_rule, v_rules.everyone_out_rule, v_rules.win_points,
              v_rules.draw_points, v_rules.loss_points, v_rules.joker)
      returning c.id, c.registration_key;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'competitions_name_type_key' then
      raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
    end if;
    raise;
  end;
end
$$;

revoke all on function private.create_competition(text, text, text, text, date, integer, text, text, uuid, text, text, text, text, jsonb)
  from public, anon, authenticated;

create function private.create_private_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_rules jsonb default null
) returns table (id uuid, registration_key text)
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_created record;
begin
  if v_uid is null then
    raise exception using errcode = '42501', message = 'You must be logged in.';
  end if;
  if not exists (select 1 from public.profiles p where p.id = v_uid) then
    raise exception using errcode = '42501', message = 'Please complete your profile first.';
  end if;
  select r.id, r.registration_key into v_created
    from private.create_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day, 'private',
                                    null, v_uid, null, null, null, null, p_rules) as r;

  -- The creator plays in their own competition: a member from the start, in this same transaction.
  insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
  select v_uid, c.id, c.league, c.season, c.current_match_day, 'active'
    from public.competitions c
   where c.id = v_created.id
  on conflict (user_id, competition_id) do nothing;

  return query select v_created.id, v_created.registration_key;
end
$$;

create function public.create_private_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_rules jsonb default null
) returns table (id uuid, registration_key text)
  language sql
  set search_path = ''
as $$
  select r.id, r.registration_key
    from private.create_private_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day,
                                            p_rules) as r
$$;

revoke all on function private.create_private_competition(text, text, text, text, date, integer, jsonb) from public, anon;
grant execute on function private.create_private_competition(text, text, text, text, date, integer, jsonb)
  to authenticated, service_role;
revoke all on function public.create_private_competition(text, text, text, text, date, integer, jsonb) from public, anon;
grant execute on function public.create_private_competition(text, text, text, text, date, integer, jsonb)
  to authenticated, service_role;

create function private.admin_create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_prize text default null, p_prize_title text default null, p_prize_description text default null,
  p_prize_terms_url text default null, p_prize_image_url text default null, p_rules jsonb default null
) returns uuid
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select r.id
            from private.create_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day,
                                            'public', p_prize, (select auth.uid()), p_prize_title,
                                            p_prize_description, p_prize_terms_url, p_prize_image_url, p_rules) as r);
end
$$;

create function public.admin_create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_prize text default null, p_prize_title text default null, p_prize_description text default null,
  p_prize_terms_url text default null, p_prize_image_url text default null, p_rules jsonb default null
) returns uuid
  language sql
  set search_path = ''
as $$
  select private.admin_create_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day,
                                          p_prize, p_prize_title, p_prize_description, p_prize_terms_url,
                                          p_prize_image_url, p_rules)
$$;

revoke all on function private.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text, jsonb)
  from public, anon;
grant execute on function private.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text, jsonb)
  to authenticated, service_role;
revoke all on function public.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text, jsonb)
  from public, anon;
grant execute on function public.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text, jsonb)
  to authenticated, service_role;

-- What the create forms offer (rules file: "any league with a coming match day"): each league and season of the
-- creation vocabulary with its match days open for selection (selection_open: fixtures, deadline ahead), within
-- the first default_total_match_days(). Definer: the vocabulary functions are not granted to players.
create function private.creation_match_days()
  returns table (league text, season text, match_day integer, deadline timestamptz)
  language sql stable
  security definer
  set search_path = ''
as $$
  select m.league, m.season, m.match_day, public.matchday_deadline(m.league, m.season, m.match_day)
    from pg_catalog.unnest(private.competition_leagues()) with ordinality l (league, n)
    cross join pg_catalog.unnest(private.competition_seasons()) with ordinality s (season, n)
    join public.matchdays m
      on m.league = l.league and m.season = s.season and m.match_day between 1 and public.default_total_match_days()
   where public.selection_open(m.league, m.season, m.match_day)
   order by l.n, s.n, m.match_day
$$;

create function public.creation_match_days()
  returns table (league text, season text, match_day integer, deadline timestamptz)
  language sql stable
  set search_path = ''
as $$
  select * from private.creation_match_days()
$$;

revoke all on function private.creation_match_days() from public, anon;
grant execute on function private.creation_match_days() to authenticated, service_role;
revoke all on function public.creation_match_days() from public, anon;
grant execute on function public.creation_match_days() to authenticated, service_role;

-- The creator (or an admin) changes the rules (p_rules: the form's fields, as at creation) until the start match
-- day's deadline; from then on they are fixed (P0001 "The rules are fixed once the competition has started.").
-- Locks the competition first (lock order). Members' lives follow: lives left is lives - public.lives_lost(...).
-- Answers saved | not_found; 42501 for anyone else; P0001 with the rules' messages (private.competition_rules_of).
create function private.update_competition_rules(p_competition_id uuid, p_rules jsonb) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_c public.competitions%rowtype;
  v_rules record;
begin
  select * into v_c from public.competitions c where c.id = p_competition_id for no key update;
  if not found or v_c.type not in ('knockout', 'season') then
    return 'not_found';
  end if;
  if v_uid is null or (v_c.created_by is distinct from v_uid and not private.is_admin()) then
    raise exception using errcode = '42501', message = 'Only the competition''s creator can change its rules.';
  end if;
  if v_c.status <> 'active' or public.matchday_deadline_passed(v_c.league, v_c.season, v_c.start_match_day) then
    raise exception using errcode = 'P0001', message = 'The rules are fixed once the competition has started.';
  end if;
  select * into v_rules from private.competition_rules_of(v_c.type, p_rules);
  update public.competitions c
     set lives = v_rules.lives, draw_rule = v_rules.draw_rule, missed_pick_rule = v_rules.missed_pick_rule,
         everyone_out_rule = v_rules.everyone_out_rule, win_points = v_rules.win_points,
         draw_points = v_rules.draw_points, loss_points = v_rules.loss_points, joker = v_rules.joker
   where c.id = p_competition_id;
  return 'saved';
end
$$;

create function public.update_competition_rules(p_competition_id uuid, p_rules jsonb) returns text
  language sql
  set search_path = ''
as $$
  select private.update_competition_rules(p_competition_id, p_rules)
$$;

revoke all on function private.update_competition_rules(uuid, jsonb) from public, anon;
grant execute on function private.update_competition_rules(uuid, jsonb) to authenticated, service_role;
revoke all on function public.update_competition_rules(uuid, jsonb) from public, anon;
grant execute on function public.update_competition_rules(uuid, jsonb) to authenticated, service_role;
