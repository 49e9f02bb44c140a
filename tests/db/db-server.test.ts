/**
 * The server's data path (app/db.server.ts) against a real database: a player's transaction must run under
 * row-level security from its very first statement, with the request's clock, whatever the callback does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type postgres from "postgres";
import { createDb } from "~/db.server";
import { createPlayer } from "../support/factories";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let alice: string;
let bob: string;

beforeAll(async () => {
  db = await useTestDatabase();
  alice = (await createPlayer(db.sql, { username: "AliceDb", email: "alice@db.test", gender: "female" })).id;
  bob = (await createPlayer(db.sql, { username: "BobDb", email: "bob@db.test", gender: "male" })).id;
});

afterAll(async () => {
  await db?.close();
});

describe("createDb", () => {
  it("asUser runs the callback's first awaited query as the player, under RLS", async () => {
    const server = createDb(db.url, new Date("2030-01-01T00:00:00Z"));
    const seen = await server.asUser(alice, async (tx) => {
      const [who] = await tx`select auth.uid() as uid, current_user as role, public.app_now() as now`;
      const others = await tx`select id from public.profiles where id = ${bob}`;
      return { who, others: others.length };
    });
    expect(seen.who.uid).toBe(alice);
    expect(seen.who.role).toBe("authenticated");
    expect(new Date(seen.who.now).toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(seen.others).toBe(0);
  });

  it("asService sets the request clock before the first query", async () => {
    const server = createDb(db.url, new Date("2031-05-06T07:08:09Z"));
    const now = await server.asService(async (tx) => (await tx`select public.app_now() as now`)[0].now);
    expect(new Date(now).toISOString()).toBe("2031-05-06T07:08:09.000Z");
  });

  it("counts the statements it sends", async () => {
    const server = createDb(db.url, new Date());
    await server.asUser(alice, async (tx) => Promise.all([tx`select 1`, tx`select 2`]));
    // BEGIN, then the identity statement and two queries (pipelined), then COMMIT.
    expect(server.statementCount()).toBe(5);
  });

  it("counts a query built from fragments once, and unsafe statements too", async () => {
    const server = createDb(db.url, new Date());
    const type = "season";
    const rows = await server.asUser(alice, async (tx) =>
      tx`select 1 as one where true ${type ? tx`and ${type} = 'season'` : tx``} ${tx`and 2 = 2`}`,
    );
    expect(rows).toHaveLength(1);
    // BEGIN, the identity statement, the one query (its two fragments are not statements), COMMIT.
    expect(server.statementCount()).toBe(4);
    await server.service((sql) => sql.unsafe("select 1"));
    expect(server.statementCount()).toBe(5);
  });

  it("rolls the whole transaction back when a query fails", async () => {
    const server = createDb(db.url, new Date());
    await expect(
      server.asService(async (tx) => {
        await tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`;
        await tx`select 1/0`;
      }),
    ).rejects.toThrow(/division by zero/);
    const [row] = await db.sql`select time_zone from public.profiles where id = ${alice}`;
    expect(row.time_zone).not.toBe("Asia/Tokyo");
    // The client is still usable afterwards.
    expect(await server.asUser(alice, async (tx) => (await tx`select auth.uid() as uid`)[0].uid)).toBe(alice);
  });
});

describe("input the database cannot take", () => {
  // (Impossible dates never get here: postgres.js serializes a date parameter through JavaScript's Date, which
  // shifts 2027-02-30 to March 2, so forms check calendar dates first: isCalendarDate in app/lib/validation.ts.)
  it("answers 400 (not 500) for a NUL byte, an out-of-range number or a malformed cast, and keeps real bugs as errors", async () => {
    const server = createDb(db.url, new Date());
    for (const query of [
      (tx: postgres.TransactionSql) => tx`select ${"a\u0000b"}::text`,
      (tx: postgres.TransactionSql) => tx`select ${"99999999999999999999"}::int`,
      (tx: postgres.TransactionSql) => tx`select ${"not-a-uuid"}::uuid`,
    ]) {
      const thrown = await server.asService(query).then((r) => r, (e: unknown) => e);
      expect(thrown, String(query)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
    }
    await expect(server.asService((tx) => tx`select 1/0`)).rejects.toThrow(/division by zero/);
  });
});
