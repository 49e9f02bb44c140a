-- One home for the competition-creation rules: private.create_competition validates (required fields,
-- type/league/season lists, name and prize length, start match day range, start date not in the past, start
-- match day not started, name+type unique) and inserts. The private (player) and admin (public) creation
-- functions keep their signatures, messages and caller checks, and only decide what they pass in.

create function private.create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_visibility text, p_prize text, p_created_by uuid
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
  v_total integer := 38;  -- competitions.total_match_days default
  v_deadline timestamptz;
  v_constraint text;
begin
  if v_name = '' or coalesce(v_type, '') = '' or coalesce(v_league, '') = '' or coalesce(v_season, '') = ''
     or p_start_date is null or p_start_match_day is null then
    raise exception using errcode = 'P0001', message = 'Please fill in all required fields.';
  end if;
  if v_type not in ('knockout', 'season') then
    raise exception using errcode = 'P0001', message = 'Type must be knockout or season.';
  end if;
  if v_league not in ('Premier League', 'La Liga', 'Serie A', 'Bundesliga', 'Ligue 1', 'Championship', 'MLS') then
    raise exception using errcode = 'P0001', message = 'Please choose a league from the list.';
  end if;
  if v_season not in ('2025/26', '2025', '2024/25') then
    raise exception using errcode = 'P0001', message = 'Please choose a season from the list.';
  end if;
  if pg_catalog.char_length(v_name) > 100 then
    raise exception using errcode = 'P0001', message = 'Competition name must be at most 100 characters.';
  end if;
  if pg_catalog.char_length(v_prize) > 500 then
    raise exception using errcode = 'P0001', message = 'Prize must be at most 500 characters.';
  end if;
  if p_start_match_day < 1 or p_start_match_day > v_total then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a positive whole number.';
  end if;
  if p_start_date < (public.app_now() at time zone 'UTC')::date then
    raise exception using errcode = 'P0001', message = 'Start date must be today or a future date.';
  end if;
  v_deadline := public.matchday_deadline(v_league, v_season, p_start_match_day);
  if v_deadline is null or v_deadline <= public.app_now() then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a match day that has not started yet.';
  end if;
  if exists (select 1 from public.competitions c
              where pg_catalog.lower(pg_catalog.btrim(c.name)) = pg_catalog.lower(v_name) and c.type = v_type) then
    raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
  end if;

  begin
    return query
      insert into public.competitions as c
        (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day,
         status, registration_status, visibility, prize, created_by)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, 'Bragging Rights!'), p_created_by)
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

revoke all on function private.create_competition(text, text, text, text, date, integer, text, text, uuid)
  from public, anon, authenticated;

create or replace function private.create_private_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer
) returns table (id uuid, registration_key text)
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := private.is_admin();
begin
  if v_uid is null then
    raise exception using errcode = '42501', message = 'You must be logged in.';
  end if;
  if not exists (select 1 from public.profiles p where p.id = v_uid) then
    raise exception using errcode = '42501', message = 'Please complete your profile first.';
  end if;
  -- Non-admins always get a knockout of the Premier League 2025/26, whatever they send.
  return query
    select r.id, r.registration_key
      from private.create_competition(
             p_name,
             case when v_admin then p_type else 'knockout' end,
             case when v_admin then p_league else 'Premier League' end,
             case when v_admin then p_season else '2025/26' end,
             p_start_date, p_start_match_day, 'private', null, v_uid) as r;
end
$$;

create or replace function private.admin_create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_prize text default null
) returns uuid
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select r.id
            from private.create_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day,
                                            'public', p_prize, (select auth.uid())) as r);
end
$$;
