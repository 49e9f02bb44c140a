-- Saving and clearing a player's push subscription, only through these functions (the save-subscription
-- function and the /profile notifications toggle call them as the signed-in player).
--
-- save_push_subscription: Web Push (endpoint + keys) or FCM (token). Idempotent: an upsert on the endpoint or
-- the token; a subscription (the same browser) that another account had saved moves to the caller, because
-- the browser belongs to whoever is signed in on it now. Saving turns notifications_enabled on; an FCM token
-- is also kept on the profile with its time (fcm_token, fcm_token_updated_at, as the spec's profile fields).
-- delete_push_subscription: removes the caller's subscription with this endpoint or token (other players'
-- rows are never touched) and clears the profile's token when it is that one.
-- disable_notifications: the toggle's off: every subscription of the caller removed, notifications_enabled
-- false, the profile's token and its time null.
--
-- Codes: saved | deleted | not_found | disabled; errors: 28000 (no identity), P0002 (no profile), 22023 (bad
-- value, refused before any write).

create function private.save_push_subscription(
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
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  if not exists (select 1 from public.profiles p where p.id = v_uid) then
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
  return 'saved';
end
$$;

create function private.delete_push_subscription(p_endpoint text default null, p_fcm_token text default null)
  returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_deleted integer;
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  if (p_endpoint is null) = (p_fcm_token is null) then
    raise exception using errcode = '22023', message = 'give an endpoint or an FCM token';
  end if;
  delete from public.push_subscriptions s
   where s.user_id = v_uid
     and (s.endpoint = p_endpoint or s.fcm_token = p_fcm_token);
  get diagnostics v_deleted = row_count;
  if p_fcm_token is not null then
    update public.profiles set fcm_token = null, fcm_token_updated_at = null
     where id = v_uid and fcm_token = p_fcm_token;
  end if;
  return case when v_deleted > 0 then 'deleted' else 'not_found' end;
end
$$;

create function private.disable_notifications() returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  delete from public.push_subscriptions s where s.user_id = v_uid;
  update public.profiles
     set notifications_enabled = false, fcm_token = null, fcm_token_updated_at = null
   where id = v_uid;
  return 'disabled';
end
$$;

create function public.save_push_subscription(
  p_kind text,
  p_endpoint text default null,
  p_p256dh text default null,
  p_auth text default null,
  p_fcm_token text default null
) returns text
  language sql
  set search_path = ''
as $$
  select private.save_push_subscription(p_kind, p_endpoint, p_p256dh, p_auth, p_fcm_token)
$$;

create function public.delete_push_subscription(p_endpoint text default null, p_fcm_token text default null)
  returns text
  language sql
  set search_path = ''
as $$
  select private.delete_push_subscription(p_endpoint, p_fcm_token)
$$;

create function public.disable_notifications() returns text
  language sql
  set search_path = ''
as $$
  select private.disable_notifications()
$$;

revoke all on function private.save_push_subscription(text, text, text, text, text) from public, anon;
revoke all on function private.delete_push_subscription(text, text) from public, anon;
revoke all on function private.disable_notifications() from public, anon;
grant execute on function private.save_push_subscription(text, text, text, text, text) to authenticated, service_role;
grant execute on function private.delete_push_subscription(text, text) to authenticated, service_role;
grant execute on function private.disable_notifications() to authenticated, service_role;
revoke all on function public.save_push_subscription(text, text, text, text, text) from public, anon;
revoke all on function public.delete_push_subscription(text, text) from public, anon;
revoke all on function public.disable_notifications() from public, anon;
grant execute on function public.save_push_subscription(text, text, text, text, text) to authenticated, service_role;
grant execute on function public.delete_push_subscription(text, text) to authenticated, service_role;
grant execute on function public.disable_notifications() to authenticated, service_role;
