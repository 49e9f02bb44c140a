-- Foundation: the extension schema with pgcrypto, the API roles, auth.uid(), the application clock, schema
-- private and the small helpers every subject uses (updated_at trigger, random codes).
--
-- This file and the others in supabase/schemas/ are the current definition of the database, one file per
-- subject, applied in the order of supabase/config.toml [db.migrations] schema_paths. They are where a
-- definition is read and changed; supabase/migrations/ stays the forward-only deploy history, and
-- tests/db/schemas-match-migrations.test.ts proves both give the same database (docs/database.md).
--
-- Runs unchanged on Debian PostgreSQL, PGlite and a hosted Supabase project. On Supabase most of these objects
-- already exist (schema extensions with pgcrypto, roles anon/authenticated/service_role, schema auth with
-- auth.uid()), so every one of them is created only when missing and an existing auth.uid() is never replaced.
-- Why the schemas, roles and grants are what they are: docs/decisions/001-database-schema-and-rls.md.

-- ---------------------------------------------------------------------------------------------------------
-- Extensions: pgcrypto lives in schema extensions (bcrypt password hashes, random bytes for codes)
-- ---------------------------------------------------------------------------------------------------------

do $$
begin
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'extensions') then
    create schema extensions;
  end if;
end
$$;

create extension if not exists pgcrypto with schema extensions;

do $$
begin
  if pg_catalog.to_regprocedure('extensions.gen_random_bytes(integer)') is null
     or pg_catalog.to_regprocedure('extensions.crypt(text, text)') is null then
    raise exception 'pgcrypto must be installed in schema "extensions" (found it elsewhere)';
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Roles
-- ---------------------------------------------------------------------------------------------------------

-- The roles a Supabase project has. NOLOGIN: the server connects as the database owner and switches with
-- `set local role authenticated` inside a player's transaction. service_role bypasses RLS as on Supabase
-- (only a superuser may grant BYPASSRLS, which is the case on local servers).
do $$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    begin
      create role anon nologin noinherit;
    exception when duplicate_object then null;  -- created meanwhile by a migration of another database
    end;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    begin
      create role authenticated nologin noinherit;
    exception when duplicate_object then null;
    end;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    begin
      if (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
        create role service_role nologin noinherit bypassrls;
      else
        create role service_role nologin noinherit;
      end if;
    exception when duplicate_object then null;
    end;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------------------
-- auth.uid(): the caller's id from the request's JWT claims (set per transaction by the server's
-- private.authenticate, by PostgREST on Supabase). A missing or empty setting, or a missing/empty "sub",
-- gives null.
-- ---------------------------------------------------------------------------------------------------------

do $$
begin
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'auth') then
    create schema auth;
  end if;
  if pg_catalog.to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
      set search_path = ''
    as $fn$
      select nullif(nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub', '')::uuid
    $fn$;
  end if;
end
$$;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated', 'service_role'] loop
    if not pg_catalog.has_schema_privilege(r, 'public', 'usage') then
      execute pg_catalog.format('grant usage on schema public to %I', r);
    end if;
    if not pg_catalog.has_schema_privilege(r, 'auth', 'usage') then
      execute pg_catalog.format('grant usage on schema auth to %I', r);
    end if;
  end loop;
end
$$;

-- ---------------------------------------------------------------------------------------------------------
-- The clock (docs/decisions/003-one-clock.md)
-- ---------------------------------------------------------------------------------------------------------

-- The single clock of every SQL rule and of every created_at/updated_at default. The server may set `app.now`
-- per transaction (set_config('app.now', '<ISO timestamp>', true)) so tests and demos can move time;
-- otherwise it is now().
create function public.app_now() returns timestamptz
  language sql stable
as $$
  select coalesce(nullif(pg_catalog.current_setting('app.now', true), '')::timestamptz, pg_catalog.now())
$$;

comment on function public.app_now() is
  'The application clock: current_setting(''app.now'') when set for the transaction, else now().';

-- ---------------------------------------------------------------------------------------------------------
-- Schema private: security-definer helpers and trigger functions. Never exposed through an API; the roles
-- only get USAGE so that policies can call the few helpers granted to them.
-- ---------------------------------------------------------------------------------------------------------

create schema private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Trigger function: keep updated_at current on every update (on the application clock).
create function private.set_updated_at() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  new.updated_at := public.app_now();
  return new;
end
$$;

revoke all on function private.set_updated_at() from public;

-- Random code of unambiguous upper-case letters and digits (no I, O, 0, 1): 32 symbols, so each random byte
-- maps without bias. Used for referral codes and private registration keys.
create function private.random_code(p_length integer default 8) returns text
  language sql volatile
  security definer
  set search_path = ''
as $$
  select pg_catalog.string_agg(
           pg_catalog.substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', (pg_catalog.get_byte(b.bytes, i) % 32) + 1, 1),
           '' order by i)
  from (select extensions.gen_random_bytes(p_length) as bytes) as b,
       pg_catalog.generate_series(0, p_length - 1) as i
$$;

revoke all on function private.random_code(integer) from public;
