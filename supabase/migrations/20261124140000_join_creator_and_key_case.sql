-- Issue 13, items 3 and 4.
--
-- create_private_competition: the creator becomes a member of the private competition they create (before, the
-- new competition showed 0 Players and the creator had to type their own key). The membership row is written in
-- the same transaction as the competition, at its start match day, with the same columns join_competition writes.
-- join_competition: registration keys are upper case (private.random_code); the typed key is compared after
-- trimming and upper-casing, so 'abcd1234' joins a competition whose key is 'ABCD1234'.
-- Grants are unchanged (create or replace keeps them).

create or replace function private.join_competition(p_competition_id uuid, p_registration_key text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  v_uid uuid := (select auth.uid());
  v_competition record;
  v_inserted integer;
begin
  if v_uid is null then
    return 'not_signed_in';
  end if;

  select c.id, c.league, c.season, c.current_match_day, c.visibility, c.registration_key
    into v_competition
    from public.competitions c
   where c.id = p_competition_id;
  if not found then
    return 'not_found';
  end if;

  if not exists (select 1 from public.profiles p where p.id = v_uid) then
    return 'no_username';
  end if;

  if exists (select 1 from public.user_selections us
              where us.user_id = v_uid and us.competition_id = p_competition_id) then
    return 'already_joined';
  end if;

  if not private.registration_is_open(p_competition_id) then
    return 'registration_closed';
  end if;

  if v_competition.visibility = 'private'
     and (p_registration_key is null
          or pg_catalog.upper(pg_catalog.regexp_replace(p_registration_key, '^\s+|\s+$', '', 'g'))
             <> v_competition.registration_key) then
    return 'invalid_key';
  end if;

  insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
  values (v_uid, v_competition.id, v_competition.league, v_competition.season, v_competition.current_match_day,
          'active')
  on conflict (user_id, competition_id) do nothing;
  get diagnostics v_inserted = row_count;

  return case when v_inserted = 1 then 'joined' else 'already_joined' end;
end
$_$;
create or replace function private.create_private_competition(p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer) RETURNS TABLE(id uuid, registration_key text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := private.is_admin();
  v_created record;
begin
  if v_uid is null then
    raise exception using errcode = '42501', message = 'You must be logged in.';
  end if;
  if not exists (select 1 from public.profiles p where p.id = v_uid) then
    raise exception using errcode = '42501', message = 'Please complete your profile first.';
  end if;
  -- Non-admins always get a knockout of the Premier League 2025/26, whatever they send.
  select r.id, r.registration_key into v_created
    from private.create_competition(
           p_name,
           case when v_admin then p_type else 'knockout' end,
           case when v_admin then p_league else 'Premier League' end,
           case when v_admin then p_season else '2025/26' end,
           p_start_date, p_start_match_day, 'private', null, v_uid) as r;

  -- The creator plays in their own competition: a member from the start, in this same transaction.
  insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
  select v_uid, c.id, c.league, c.season, c.current_match_day, 'active'
    from public.competitions c
   where c.id = v_created.id
  on conflict (user_id, competition_id) do nothing;

  return query select v_created.id, v_created.registration_key;
end
$$;
