/**
 * A faithful local imitation of the hosted Supabase project FootyCoach adopts (issue: "adopt the existing hosted
 * database in place"), on the throwaway real PostgreSQL of tests/support/pg.ts:
 *
 * - a database owned by `imitation_postgres`, a LOGIN role that is NOT a superuser (Supabase's `postgres`), member
 *   of anon/authenticated/service_role as on Supabase, with Supabase's default privileges in schema public;
 * - schemas auth (owned by another role, like supabase_auth_admin), extensions (pgcrypto), storage;
 *   auth.users with Supabase's real columns; Supabase's auth.uid();
 * - the ORIGINAL app's public tables with exactly the spec's columns, foreign keys to auth.users, its views and
 *   remote procedures, its own row-level security, and its own supabase_migrations history (versions unknown
 *   here); in three variants: the spec's lists, extra columns, no optional views (./original-app-schema.ts);
 * - rows in all of them: named players for each Supabase Auth case, plus a generator scaled by parameters
 *   (./original-app-seed.ts).
 *
 * The adoption (scripts/db/adopt.ts) then runs as `imitation_postgres`, as an operator would run it as `postgres`.
 */
import postgres from "postgres";
import { originalAppSql, type ImitationVariant } from "./original-app-schema";
import { connect, withDatabase } from "./pg";

export type { ImitationVariant };
export { PEOPLE, PRIVATE_COMPETITIONS, seedOriginal, SMALL, type Person, type Scale } from "./original-app-seed";

export const IMITATION_OWNER = "imitation_postgres";

/** The original app's migration history: versions our supabase/migrations never had. */
export const ORIGINAL_VERSIONS = ["20240301120000", "20240315093000", "20240402180000", "20240610110000"];

export interface Imitation {
  /** As imitation_postgres (not a superuser): what the operator's DATABASE_URL is. */
  url: string;
  /** As the cluster's superuser: the test's view from outside (e.g. to read auth as supabase_auth_admin would). */
  superUrl: string;
  drop(): Promise<void>;
}

async function ensureRole(sql: postgres.Sql, ddl: string) {
  // Roles are shared by every database of the server: parallel test files may race to create them.
  await sql.unsafe(`do $$ begin ${ddl}; exception when duplicate_object then null; end $$`);
}

/** Creates the imitation (empty of rows): roles, schemas, auth.users, the original app's schema and history. */
export async function createSupabaseImitation(
  adminUrl: string,
  name: string,
  options: { originalApp?: boolean; variant?: ImitationVariant } = {},
): Promise<Imitation> {
  const { originalApp = true, variant = "spec" } = options;
  const admin = connect(adminUrl, { max: 1 });
  try {
    for (const r of ["anon", "authenticated", "service_role"]) await ensureRole(admin, `create role ${r} nologin noinherit`);
    await ensureRole(admin, `create role supabase_auth_admin nologin noinherit`);
    await ensureRole(admin, `create role ${IMITATION_OWNER} login nosuperuser createrole inherit`);
    await admin.unsafe(`grant anon, authenticated, service_role to ${IMITATION_OWNER}`);
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name} owner ${IMITATION_OWNER}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const superUrl = withDatabase(adminUrl, name);
  const url = (() => {
    const u = new URL(superUrl);
    u.username = IMITATION_OWNER;
    return u.toString();
  })();

  const su = connect(superUrl, { max: 1 });
  try {
    await su.unsafe(SUPABASE_PLATFORM_SQL);
  } finally {
    await su.end({ timeout: 5 });
  }
  const owner = connect(url, { max: 1 });
  try {
    if (originalApp) await owner.unsafe(originalAppSql(variant));
    for (const v of originalApp ? ORIGINAL_VERSIONS : []) {
      await owner`insert into supabase_migrations.schema_migrations (version, name, statements)
                  values (${v}, ${"original_" + v}, ${["-- original app"]})`;
    }
  } finally {
    await owner.end({ timeout: 5 });
  }
  return {
    url,
    superUrl,
    async drop() {
      const sql = connect(adminUrl, { max: 1 });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/** What the Supabase platform provides before any app migration (run as the superuser, as Supabase does). */
const SUPABASE_PLATFORM_SQL = `
  create schema extensions;
  create extension pgcrypto with schema extensions;
  grant usage on schema extensions to public;

  create schema auth authorization supabase_auth_admin;
  create schema storage authorization supabase_auth_admin;
  grant usage on schema auth, storage to anon, authenticated, service_role, ${IMITATION_OWNER};

  -- Supabase's auth.users (the columns the carry-over reads, and those around them).
  create table auth.users (
    instance_id uuid,
    id uuid primary key,
    aud varchar(255),
    role varchar(255),
    email varchar(255),
    encrypted_password varchar(255),
    email_confirmed_at timestamptz,
    invited_at timestamptz,
    confirmation_token varchar(255),
    recovery_token varchar(255),
    last_sign_in_at timestamptz,
    raw_app_meta_data jsonb,
    raw_user_meta_data jsonb,
    is_super_admin boolean,
    created_at timestamptz,
    updated_at timestamptz,
    phone text unique,
    phone_confirmed_at timestamptz,
    confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
    banned_until timestamptz,
    is_sso_user boolean not null default false,
    deleted_at timestamptz,
    is_anonymous boolean not null default false
  );
  create index users_email_idx on auth.users (email);
  alter table auth.users owner to supabase_auth_admin;
  grant select, references on auth.users to ${IMITATION_OWNER};

  create function auth.uid() returns uuid language sql stable as $$
    select coalesce(
      nullif(current_setting('request.jwt.claim.sub', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
    )::uuid
  $$;
  alter function auth.uid() owner to supabase_auth_admin;
  grant execute on function auth.uid() to public;

  -- Supabase's default privileges: everything the owner creates in public is open to the API roles
  -- (decision 001's revokes exist because of this).
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on sequences to anon, authenticated, service_role;
`;
