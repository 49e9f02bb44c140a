/**
 * After a deletion, no page or data response shows the old username, display name or e-mail (rules file, "Your
 * account and your data"; decision 029). The pages read the public schema's views, tables and functions under
 * row-level security, so this test takes them from the catalog (a new view or function is walked without being
 * listed here): every relation the API role may read, and every function it may call, with arguments made from their
 * parameters' names and types (each competition, each player, each match day, the league...), read as another
 * member of the deleted player's competitions and as an admin, each call in its own transaction rolled back. Then
 * every table of every schema is searched as the owner: nothing stored holds the old names either.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { deleteAccount } from "~/models/account-settings.server";
import { createAdmin, type Sql } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";
import { arrangeEverything, PASSWORD, sessionOf, type Arranged } from "./account-support";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;
let a: Arranged;
let admin: { id: string };
let traces: string[];
let tag: string;

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
  a = await arrangeEverything(sql);
  admin = await createAdmin(sql);
  // Something about the deleted player in every table a page reads: a live score on the match day under way.
  await sql`update public.fixtures set live_status = 'IN_PLAY', live_home_score = 1, live_away_score = 0, live_updated_at = now()
             where league = ${a.league} and match_day = 2`;
  traces = [a.me.username, a.me.displayName, a.me.email].map((t) => t.toLowerCase());
  expect(await deleteAccount(createDb(db.url, new Date()), await sessionOf(sql, a.me.id), PASSWORD, "10.7.7.7")).toEqual({ ok: true });
  [{ username: tag }] = await sql<{ username: string }[]>`select username from public.profiles where id = ${a.me.id}`;
});

afterAll(async () => {
  await db?.close();
});

class Rollback extends Error {}

/** Runs `read` as the player in a transaction that is always rolled back; its text, or null when it was refused. */
async function readAs(userId: string, read: (tx: postgres.TransactionSql) => Promise<readonly { text: string | null }[]>) {
  let text: string | null = null;
  await asUser(db.sql, userId, async (tx) => {
    try {
      text = (await read(tx)).map((r) => r.text ?? "").join("\n");
    } catch {
      text = null; // refused (not theirs, not an admin, bad arguments): it showed nothing
    }
    throw new Rollback();
  }).catch((error: unknown) => {
    if (!(error instanceof Rollback)) throw error;
  });
  return text as string | null;
}

const found = (text: string | null) => traces.filter((t) => text?.toLowerCase().includes(t));

describe("after a deletion, every view, table and function a player can read", () => {
  it("shows the old username, display name and e-mail nowhere, and 'Deleted player' where the player was", async () => {
    const relations = await sql<{ name: string }[]>`
      select c.relname as name from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'v', 'm', 'p')
         and has_table_privilege('authenticated', c.oid, 'select')
       order by 1`;
    const functions = await sql<{ name: string; signature: string; args: string[] | null; types: string[] }[]>`
      select p.proname as name, p.oid::regprocedure::text as signature, p.proargnames as args,
             array(select format_type(t, null) from unnest(p.proargtypes::oid[]) t) as types
        from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
         and has_function_privilege('authenticated', p.oid, 'execute')
       order by 1`;
    expect(relations.map((r) => r.name)).toEqual(expect.arrayContaining(["player_names", "profiles", "knockout_leaderboard_view"]));
    expect(functions.map((f) => f.name)).toEqual(expect.arrayContaining(["knockout_leaderboard_page", "live_season_table", "my_data"]));

    // Values for each parameter, by name first, then by type.
    const competitions = [a.knockout, a.season, a.open, a.created, a.scout];
    const [fixture] = await sql<
      { id: string }[]
    >`select id::text from public.fixtures where league = ${a.league} and match_day = 2 limit 1`;
    const byName: Record<string, unknown[]> = {
      p_competition_id: competitions,
      p_user_id: [a.me.id, a.other.id],
      p_league: [a.league],
      p_season: ["2025/26"],
      p_match_day: [1, 2, 3],
      p_limit: [1000],
      p_offset: [0],
      p_fixture_id: [fixture.id],
      p_team: [a.teams.past],
    };
    const byType: Record<string, unknown[]> = { uuid: [a.me.id], integer: [1], bigint: [fixture.id], boolean: [false], jsonb: ["[]"] };
    const combinations = (names: string[], types: string[]) =>
      names.reduce<unknown[][]>(
        (sets, name, i) => sets.flatMap((set) => (byName[name] ?? byType[types[i]] ?? [null]).map((value) => [...set, value])),
        [[]],
      );

    const report: string[] = [];
    let reads = 0;
    let deletedShown = 0;
    for (const reader of [a.other.id, admin.id]) {
      for (const { name } of relations) {
        const text = await readAs(reader, (tx) => tx.unsafe(`select t::text as text from public.${name} t`));
        reads++;
        if (text?.includes(tag)) deletedShown++;
        for (const trace of found(text)) report.push(`${name} as ${reader === admin.id ? "admin" : "member"}: ${trace}`);
      }
      for (const fn of functions) {
        const names = fn.args ?? fn.types.map((_, i) => `$${i + 1}`);
        for (const values of combinations(names, fn.types)) {
          const call = `select t::text as text from public.${fn.name}(${values.map((_, i) => `$${i + 1}::${fn.types[i]}`).join(", ")}) t`;
          const text = await readAs(reader, (tx) => tx.unsafe(call, values as postgres.ParameterOrJSON<never>[]));
          reads++;
          if (text?.includes(tag)) deletedShown++;
          for (const trace of found(text)) report.push(`${fn.signature}(${values.join(", ")}) as ${reader}: ${trace}`);
        }
      }
    }
    expect(report).toEqual([]);
    // Not a vacuous walk: the kept picks show under the new name on the leaderboards and registered players.
    expect(reads).toBeGreaterThan(100);
    expect(deletedShown).toBeGreaterThan(5);
  });
});

describe("after a deletion, everything stored", () => {
  it("holds the old username, display name and e-mail nowhere, in any schema", async () => {
    const tables = await sql<{ name: string }[]>`
      select format('%I.%I', n.nspname, c.relname) as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
       order by 1`;
    const hits: string[] = [];
    for (const { name } of tables) {
      const [row] = await sql.unsafe<{ n: number }[]>(
        `select count(*)::int as n from ${name} t where ${traces.map((_, i) => `strpos(lower(t::text), $${i + 1}) > 0`).join(" or ")}`,
        traces,
      );
      if (row.n > 0) hits.push(`${name}: ${row.n} rows`);
    }
    expect(tables.length).toBeGreaterThan(30);
    expect(hits).toEqual([]);
  });
});
