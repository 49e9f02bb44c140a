-- Joining and leaving a competition, only through these functions.
--
-- join_competition: one membership per player and competition also under concurrent calls (insert ... on
-- conflict do nothing on the unique (user_id, competition_id); the loser of a race gets 'already_joined').
-- player_count follows by the existing trigger. Registration is accepted only while registration_status is
-- 'open', the competition is active and not a Scout, and the start match day's deadline has not passed (the
-- rule that closes registration, applied even before a job flips registration_status).
--
-- The private key is compared after trimming whitespace (spaces, tabs, newlines) on both ends.
--
-- Codes: join: joined | already_joined | not_found | registration_closed | no_username | invalid_key |
-- not_signed_in. unregister: unregistered | not_registered | registration_closed | not_signed_in.

-- Players no longer insert or delete memberships directly (admins keep their policies).
drop policy user_selections_insert_own on public.user_selections;
drop policy user_selections_delete_own on public.user_selections;

-- Registration open now: status open, active, not Scout, start match day's deadline not passed.
create function private.registration_is_open(p_competition_id uuid) returns boolean
  language sql stable
  security definer
  set search_path = ''
as $$
  select coalesce((
    select c.registration_status = 'open'
           and c.status = 'active'
           and c.type <> 'scout'
           and not coalesce(public.matchday_deadline(c.league, c.season, c.start_match_day) <= public.app_now(), false)
      from public.competitions c
     where c.id = p_competition_id), false)
$$;

create function private.join_competition(p_competition_id uuid, p_registration_key text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
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
          or pg_catalog.regexp_replace(p_registration_key, '^\s+|\s+$', '', 'g') <> v_competition.registration_key) then
    return 'invalid_key';
  end if;

  insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
  values (v_uid, v_competition.id, v_competition.league, v_competition.season, v_competition.current_match_day,
          'active')
  on conflict (user_id, competition_id) do nothing;
  get diagnostics v_inserted = row_count;

  return case when v_inserted = 1 then 'joined' else 'already_joined' end;
end
$$;

create function private.unregister_competition(p_competition_id uuid) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_deleted integer;
begin
  if v_uid is null then
    return 'not_signed_in';
  end if;

  -- The standings lock first (lock order of 20261122200000_add_membership_stats.sql), then the membership.
  perform private.lock_competition(p_competition_id);

  if not exists (select 1 from public.user_selections us
                  where us.user_id = v_uid and us.competition_id = p_competition_id) then
    return 'not_registered';
  end if;

  if not private.registration_is_open(p_competition_id) then
    return 'registration_closed';
  end if;

  delete from public.user_selections us
   where us.user_id = v_uid and us.competition_id = p_competition_id;
  get diagnostics v_deleted = row_count;

  return case when v_deleted = 1 then 'unregistered' else 'not_registered' end;
end
$$;

create function public.join_competition(p_competition_id uuid, p_registration_key text default null) returns text
  language sql
  set search_path = ''
as $$
  select private.join_competition(p_competition_id, p_registration_key)
$$;

create function public.unregister_competition(p_competition_id uuid) returns text
  language sql
  set search_path = ''
as $$
  select private.unregister_competition(p_competition_id)
$$;

revoke all on function private.registration_is_open(uuid) from public, anon;
revoke all on function private.join_competition(uuid, text) from public, anon;
revoke all on function private.unregister_competition(uuid) from public, anon;
grant execute on function private.join_competition(uuid, text) to authenticated, service_role;
grant execute on function private.unregister_competition(uuid) to authenticated, service_role;
revoke all on function public.join_competition(uuid, text) from public, anon;
revoke all on function public.unregister_competition(uuid) from public, anon;
grant execute on function public.join_competition(uuid, text) to authenticated, service_role;
grant execute on function public.unregister_competition(uuid) to authenticated, service_role;
