-- The session check of a player's request, as the first statement of the request's transaction (decision 011).
-- Given the SHA-256 (hex) of the session cookie's token, it returns the signed-in user when the session exists
-- and has not expired on the request clock, and only then sets the transaction's identity
-- (request.jwt.claims) that row-level security reads through auth.uid(). No row: no identity. The caller
-- sets the role in the same statement ('authenticated' with a row, 'anon' without): a security-definer
-- function may not set the role itself.

create function private.authenticate(p_session_hash text)
returns table (id uuid, email text, username text, role text, time_zone text, analytics_consent boolean, session_id text)
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_user uuid;
begin
  select s.user_id into v_user
    from account.sessions s
   where s.id = p_session_hash and s.expires_at > public.app_now();
  perform pg_catalog.set_config('request.jwt.claims',
    case when v_user is null then ''
         else pg_catalog.json_build_object('sub', v_user, 'role', 'authenticated')::text end, true);
  return query
    select a.id, a.email::text, p.username::text, coalesce(p.role, 'player')::text, p.time_zone::text,
           p.analytics_consent, p_session_hash
      from account.accounts a
      left join public.profiles p on p.id = a.id
     where a.id = v_user;
end
$$;

revoke all on function private.authenticate(text) from public, anon, authenticated;
