-- Push subscription endpoints only on a known push service's host (rules file, Reminders): the scheduler POSTs
-- to every stored endpoint, so any https URL let a player aim it at internal addresses (SSRF). The home of the
-- rule is app/lib/push-services.ts, applied by the save-subscription function and again by the scheduler's
-- sender before any send. This is the database's backstop for calls that skip the web function (the hosted
-- project's RPC API exposes public.save_push_subscription to signed-in players): private.save_push_subscription
-- (previous version: migration 20261125120000) now also refuses (22023) an endpoint that is not https on
-- fcm.googleapis.com, jmt17.google.com (FCM for Chrome's non-Stable channels) or a subdomain of
-- push.services.mozilla.com, push.apple.com or notify.windows.com, written
-- in lower case with no userinfo and no port but 443. An IP literal in any spelling matches none of those.
-- tests/db/push-subscriptions.test.ts checks this list against the TypeScript one. Existing rows are left as
-- they are (the sender refuses and removes a bad one). Everything else is unchanged; create or replace keeps
-- the grants.

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
    -- https, a known push service's host written plainly (lower case), no userinfo, port 443 at most, then
    -- printable ASCII: app/lib/push-services.ts's list and rules, which the save-subscription function applies
    -- first (stricter: it also checks the keys).
    if p_endpoint is null or char_length(p_endpoint) > 2000
       or p_endpoint !~ ('^https://(fcm\.googleapis\.com|jmt17\.google\.com'
                         || '|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+(push\.services\.mozilla\.com|push\.apple\.com|notify\.windows\.com))'
                         || '(:443)?([/?#][\x21-\x7e]*)?$')
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
