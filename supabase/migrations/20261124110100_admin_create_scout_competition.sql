-- Admins create Scout competitions in the admin panel's Create Competition form, with the prize the Scout page
-- shows: prize_title, prize_description, prize_terms_url and prize_image_url (rules file, Scout).
--
-- * private.admin_competition_types(): what an admin may create in the admin panel (the creation types plus
--   scout). Private competitions keep private.competition_types() (knockout, season): a Scout competition is
--   always public. app/lib/competition-options.ts ADMIN_CREATE_TYPE_VALUES is the TypeScript copy
--   (tests/db/vocabulary.test.ts keeps them equal).
-- * private.create_competition gains the four prize fields (default null, so create_private_competition's call is
--   unchanged): trimmed, blank = none; only for type scout ('Prize details are for Scout competitions only.');
--   title at most 200 characters, description at most 4000, both URLs https:// only and at most 2000 characters
--   (the table's own checks also allow http:// and site paths, which the admin form does not).
--   Otherwise copied from 20261123300200.
-- * admin_create_competition (private and the public wrapper) take the four prize fields too.

create function private.admin_competition_types() returns text[]
  language sql immutable
  set search_path = ''
as $$
  select private.competition_types() || array['scout']
$$;

revoke all on function private.admin_competition_types() from public, anon, authenticated;

-- An https:// address: a host, an optional port, then printable characters without spaces.
create function private.is_https_url(p_url text) returns boolean
  language sql immutable
  set search_path = ''
as $$
  select p_url ~ '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][!-~]*)?$'
$$;

revoke all on function private.is_https_url(text) from public, anon, authenticated;

drop function private.create_competition(text, text, text, text, date, integer, text, text, uuid);

create function private.create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_visibility text, p_prize text, p_created_by uuid,
  p_prize_title text default null, p_prize_description text default null, p_prize_terms_url text default null,
  p_prize_image_url text default null
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

  begin
    return query
      insert into public.competitions as c
        (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day,
         status, registration_status, visibility, prize, prize_title, prize_description, prize_terms_url,
         prize_image_url, created_by)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, public.default_prize()), v_prize_title,
              v_prize_description, v_prize_terms_url, v_prize_image_url, p_created_by)
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

revoke all on function private.create_competition(text, text, text, text, date, integer, text, text, uuid, text, text, text, text)
  from public, anon, authenticated;

drop function public.admin_create_competition(text, text, text, text, date, integer, text);
drop function private.admin_create_competition(text, text, text, text, date, integer, text);

create function private.admin_create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_prize text default null, p_prize_title text default null, p_prize_description text default null,
  p_prize_terms_url text default null, p_prize_image_url text default null
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
                                            p_prize_description, p_prize_terms_url, p_prize_image_url) as r);
end
$$;

create function public.admin_create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_prize text default null, p_prize_title text default null, p_prize_description text default null,
  p_prize_terms_url text default null, p_prize_image_url text default null
) returns uuid
  language sql
  set search_path = ''
as $$
  select private.admin_create_competition(p_name, p_type, p_league, p_season, p_start_date, p_start_match_day,
                                          p_prize, p_prize_title, p_prize_description, p_prize_terms_url,
                                          p_prize_image_url)
$$;

revoke all on function private.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text)
  from public, anon;
grant execute on function private.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text)
  to authenticated, service_role;
revoke all on function public.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text)
  from public, anon;
grant execute on function public.admin_create_competition(text, text, text, text, date, integer, text, text, text, text, text)
  to authenticated, service_role;
