-- A player keeps at most 10 push subscriptions (rules file, Reminders): each is one push per reminder, so 300
-- kept subscriptions meant 300 pushes for one player. private.save_push_subscription (previous version: migration
-- 20261124130000) now, in the same transaction as the save:
--   - locks the caller's profile row first (FOR NO KEY UPDATE: it does not block the foreign-key checks of other
--     writes that reference the profile), so concurrent saves of one player run one after another and each sees
--     the others' rows; the profile-exists check is this same read;
--   - after the upsert, removes the caller's oldest subscriptions (by created_at, then id) beyond 10, never the
--     one just saved (a browser that moved from another account keeps its old created_at but is the newest here).
-- The cap is enforced here, the only way a player writes the table (players have no insert grant). Everything else
-- is unchanged; create or replace keeps the grants.

create or replace function private.save_push_subscription(
  p_kind text,
  p_endpoint text default null,
  p_p256dh text default null,
  p_auth text default null,
  p_fcm_token text default null
) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_saved uuid;
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  -- The per-player lock of the 10-subscription cap (see the header), and the profile check.
  perform 1 from public.profiles p where p.id = v_uid for no key update;
  if not found then
    raise exception using errcode = 'P0002', message = 'No profile found. Let''s get you set up!';
  end if;

  if p_kind = 'webpush' then
    if p_endpoint is null or p_endpoint !~ '^https://' or char_length(p_endpoint) > 2000
       or coalesce(char_length(p_p256dh), 0) not between 1 and 200
       or coalesce(char_length(p_auth), 0) not between 1 and 100 then
      raise exception using errcode = '22023', message = 'invalid push subscription';
    end if;
    insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
    values (v_uid, 'webpush', p_endpoint, p_p256dh, p_auth)
    on conflict (endpoint) do update
      set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth
      where (push_subscriptions.user_id, push_subscriptions.p256dh, push_subscriptions.auth)
            is distinct from (excluded.user_id, excluded.p256dh, excluded.auth);
    -- The caller's row either way (an unchanged re-save updates nothing and returns nothing).
    select s.id into v_saved from public.push_subscriptions s where s.endpoint = p_endpoint;
    update public.profiles set notifications_enabled = true
     where id = v_uid and not notifications_enabled;
  elsif p_kind = 'fcm' then
    if coalesce(char_length(p_fcm_token), 0) not between 1 and 4096 then
      raise exception using errcode = '22023', message = 'invalid FCM token';
    end if;
    insert into public.push_subscriptions (user_id, kind, fcm_token)
    values (v_uid, 'fcm', p_fcm_token)
    on conflict (fcm_token) do update
      set user_id = excluded.user_id
      where push_subscriptions.user_id is distinct from excluded.user_id;
    select s.id into v_saved from public.push_subscriptions s where s.fcm_token = p_fcm_token;
    -- Another account that held this token on its profile no longer does (the browser is the caller's now).
    update public.profiles set fcm_token = null, fcm_token_updated_at = null
     where fcm_token = p_fcm_token and id <> v_uid;
    update public.profiles
       set notifications_enabled = true,
           fcm_token = p_fcm_token,
           fcm_token_updated_at = case when fcm_token is distinct from p_fcm_token then public.app_now()
                                       else coalesce(fcm_token_updated_at, public.app_now()) end
     where id = v_uid;
  else
    raise exception using errcode = '22023', message = 'invalid push subscription type';
  end if;

  -- At most 10: the one just saved and the 9 newest others stay. A removed FCM token leaves the profile too.
  with removed as (
    delete from public.push_subscriptions s
     where s.user_id = v_uid
       and s.id not in (select k.id from public.push_subscriptions k
                         where k.user_id = v_uid
                         order by k.id = v_saved desc, k.created_at desc, k.id desc
                         limit 10)
    returning s.fcm_token
  )
  update public.profiles p set fcm_token = null, fcm_token_updated_at = null
    from removed r
   where p.id = v_uid and p.fcm_token = r.fcm_token;
  return 'saved';
end
$$;
