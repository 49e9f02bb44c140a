/**
 * Schema-wide security properties: RLS everywhere, invoker views, pinned search_path on security-definer
 * functions (none in the API schema), and what anon/authenticated may touch at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  db = await useTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe("schema security", () => {
  it("has row-level security enabled on every table in public and account", async () => {
    const tables = await db.sql<{ name: string }[]>`
      select n.nspname || '.' || c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'account') and c.relkind in ('r', 'p')
       order by 1`;
    // Guard against a vacuous pass: the tables this suite is about exist.
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "account.accounts",
        "account.sessions",
        "account.password_reset_tokens",
        "account.auth_attempts",
        "account.mail_outbox",
        "public.profiles",
        "public.player_names",
        "public.competitions",
        "public.fixtures",
        "public.matchdays",
        "public.user_selections",
        "public.team_selections",
        "public.release_notes",
        "public.scout_entries",
        "public.scout_predictions",
        "public.tickets",
        "public.referrals",
        "public.push_subscriptions",
        "public.reminder_log",
      ]),
    );
    const offenders = await db.sql<{ name: string }[]>`
      select n.nspname || '.' || c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'account') and c.relkind in ('r', 'p') and not c.relrowsecurity
       order by 1`;
    expect(
      offenders.map((o) => o.name),
      "tables without RLS",
    ).toEqual([]);
  });

  it("declares every view in public with security_invoker", async () => {
    const offenders = await db.sql<{ name: string }[]>`
      select c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('v', 'm')
         and not exists (
           select 1 from unnest(coalesce(c.reloptions, '{}')) o
            where lower(o) in ('security_invoker=true', 'security_invoker=on', 'security_invoker=1'))
       order by 1`;
    expect(
      offenders.map((o) => o.name),
      "views without security_invoker",
    ).toEqual([]);
  });

  it("pins search_path on every security-definer function and keeps them out of public", async () => {
    const definers = await db.sql<{ name: string; schema: string; pinned: boolean }[]>`
      select p.oid::regprocedure::text as name, n.nspname as schema,
             exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%') as pinned
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.prosecdef and n.nspname in ('public', 'private', 'account')`;
    expect(definers.length).toBeGreaterThan(3);
    expect(
      definers.filter((d) => !d.pinned).map((d) => d.name),
      "definer functions without search_path",
    ).toEqual([]);
    expect(
      definers.filter((d) => d.schema !== "private").map((d) => d.name),
      "definer functions outside private",
    ).toEqual([]);
  });

  it("lets anon read only release_notes, and nothing in account", async () => {
    const rows = await db.sql<{ name: string; privileges: string[] }[]>`
      select n.nspname || '.' || c.relname as name,
             array_remove(array[
               case when has_table_privilege('anon', c.oid, 'select') then 'select' end,
               case when has_table_privilege('anon', c.oid, 'insert') then 'insert' end,
               case when has_table_privilege('anon', c.oid, 'update') then 'update' end,
               case when has_table_privilege('anon', c.oid, 'delete') then 'delete' end,
               case when has_any_column_privilege('anon', c.oid, 'select') then 'column select' end
             ], null) as privileges
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'account') and c.relkind in ('r', 'p', 'v', 'm')
       order by 1`;
    const granted = rows.filter((r) => r.privileges.length > 0);
    expect(granted).toEqual([{ name: "public.release_notes", privileges: ["select", "column select"] }]);
  });

  it("grants authenticated nothing in schema account", async () => {
    const [{ usage }] = await db.sql`select has_schema_privilege('authenticated', 'account', 'usage') as usage`;
    expect(usage).toBe(false);
    const granted = await db.sql`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'account' and c.relkind = 'r'
         and (has_any_column_privilege('authenticated', c.oid, 'select')
              or has_table_privilege('authenticated', c.oid, 'insert')
              or has_table_privilege('authenticated', c.oid, 'update')
              or has_table_privilege('authenticated', c.oid, 'delete'))`;
    expect(granted).toEqual([]);
  });

  it("keeps competitions.registration_key out of authenticated's column privileges", async () => {
    const [row] = await db.sql`
      select has_column_privilege('authenticated', 'public.competitions', 'registration_key', 'select') as key,
             has_column_privilege('authenticated', 'public.competitions', 'name', 'select') as name,
             has_table_privilege('authenticated', 'public.competitions', 'select') as whole_table`;
    expect(row).toEqual({ key: false, name: true, whole_table: false });
  });

  it("does not grant players insert or update on profile identity and privilege columns", async () => {
    const rows = await db.sql<{ column: string; insert: boolean; update: boolean }[]>`
      select c as column,
             has_column_privilege('authenticated', 'public.profiles', c, 'insert') as insert,
             has_column_privilege('authenticated', 'public.profiles', c, 'update') as update
        from unnest(array['id', 'email', 'role', 'referral_code', 'referred_by', 'created_at', 'updated_at']) as c`;
    const granted = rows.filter((r) => r.update || (r.insert && r.column !== "id"));
    expect(granted).toEqual([]);
    const [{ username }] = await db.sql`
      select has_column_privilege('authenticated', 'public.profiles', 'username', 'update') as username`;
    expect(username).toBe(true);
  });

  it("resolves auth.uid() from request.jwt.claims, null when missing or empty", async () => {
    const id = "6f1c2d3e-0000-4000-8000-000000000001";
    const rows = await db.sql.begin(async (tx) => {
      const none = await tx`select auth.uid() as uid`;
      await tx`select set_config('request.jwt.claims', '', true)`;
      const empty = await tx`select auth.uid() as uid`;
      await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: "" })}, true)`;
      const emptySub = await tx`select auth.uid() as uid`;
      await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: id })}, true)`;
      const set = await tx`select auth.uid() as uid`;
      return [none[0].uid, empty[0].uid, emptySub[0].uid, set[0].uid];
    });
    expect(rows).toEqual([null, null, null, id]);
  });

  it("takes app_now() from app.now when set, else the transaction time", async () => {
    const at = new Date("2030-01-02T03:04:05.000Z");
    const [moved, real] = await db.sql.begin(async (tx) => {
      await tx`select set_config('app.now', ${at.toISOString()}, true)`;
      const [a] = await tx<{ t: Date }[]>`select public.app_now() as t`;
      await tx`select set_config('app.now', '', true)`;
      const [b] = await tx<{ t: Date; n: Date }[]>`select public.app_now() as t, now() as n`;
      return [a.t, b];
    });
    expect(moved.toISOString()).toBe(at.toISOString());
    expect(real.t.getTime()).toBe(real.n.getTime());
  });
});
