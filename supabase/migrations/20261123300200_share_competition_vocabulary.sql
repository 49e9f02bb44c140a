-- The creation vocabulary (types, leagues, seasons), the default number of match days and the default prize
-- each get one home in SQL, which enforces them; the TypeScript copies (app/lib/competition-options.ts:
-- CREATE_TYPE_VALUES, CREATE_LEAGUES, CREATE_SEASONS, DEFAULT_PRIZE) are what the forms and pages show, and
-- tests/db/vocabulary.test.ts fails when the two disagree (same values, same order).
--
-- * private.competition_types(), private.competition_leagues(), private.competition_seasons(): the lists
--   private.create_competition accepts (written inline there before);
-- * public.default_total_match_days(): 38, the default of competitions.total_match_days and the bound of the
--   start match day in private.create_competition (both wrote 38), and what the admin results view falls back to
--   for a league and season without competitions (app/models/fixtures.server.ts had its own 38);
-- * public.default_prize(): 'Bragging Rights!', the default of competitions.prize and what
--   private.create_competition stores for a blank prize (both wrote the text);
-- * private.create_competition: copied from 20261123300000 with the lists, 38 and the prize replaced by these
--   calls.

create function private.competition_types() returns text[]
  language sql immutable
  set search_path = ''
as $$
  select array['knockout', 'season']
$$;

create function private.competition_leagues() returns text[]
  language sql immutable
  set search_path = ''
as $$
  select array['Premier League', 'La Liga', 'Serie A', 'Bundesliga', 'Ligue 1', 'Championship', 'MLS']
$$;

create function private.competition_seasons() returns text[]
  language sql immutable
  set search_path = ''
as $$
  select array['2025/26', '2025', '2024/25']
$$;

revoke all on function private.competition_types() from public, anon, authenticated;
revoke all on function private.competition_leagues() from public, anon, authenticated;
revoke all on function private.competition_seasons() from public, anon, authenticated;

create function public.default_total_match_days() returns integer
  language sql immutable
  set search_path = ''
as $$
  select 38
$$;

comment on function public.default_total_match_days() is
  'Match days of a competition unless set otherwise: the default of competitions.total_match_days.';

revoke all on function public.default_total_match_days() from public, anon;
grant execute on function public.default_total_match_days() to authenticated, service_role;

create function public.default_prize() returns text
  language sql immutable
  set search_path = ''
as $$
  select 'Bragging Rights!'::text
$$;

comment on function public.default_prize() is
  'The prize of a competition created without one: the default of competitions.prize.';

revoke all on function public.default_prize() from public, anon;
grant execute on function public.default_prize() to authenticated, service_role;

alter table public.competitions alter column total_match_days set default public.default_total_match_days();
alter table public.competitions alter column prize set default public.default_prize();

create or replace function private.create_competition(
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
  v_total integer := public.default_total_match_days();
  v_constraint text;
begin
  if v_name = '' or coalesce(v_type, '') = '' or coalesce(v_league, '') = '' or coalesce(v_season, '') = ''
     or p_start_date is null or p_start_match_day is null then
    raise exception using errcode = 'P0001', message = 'Please fill in all required fields.';
  end if;
  if not v_type = any (private.competition_types()) then
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
         status, registration_status, visibility, prize, created_by)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, public.default_prize()), p_created_by)
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
