/**
 * The server's data path (app/db/ (request-db, player-transaction)) against a real database: a player's transaction must run under
 * row-level security from its very first statement, with the request's clock, whatever the callback does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type postgres from "postgres";
import { createHash } from "node:crypto";
import { createDb } from "~/db/request-db.server";
import type { PlayerSql } from "~/db/types";
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

/** A session row for the user (as login would write it) and its hash, the cookie token's SHA-256. */
async function sessionOf(userId: string, expires = new Date("2099-01-01T00:00:00Z")): Promise<string> {
  const hash = createHash("sha256").update(`token-${userId}-${Math.random()}`).digest("hex");
  await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${userId}, '2020-01-01', ${expires})`;
  return hash;
}

/** A request's Db signed in as the user. */
async function signedIn(userId: string, now = new Date()) {
  const server = createDb(db.url, now);
  const user = await server.authenticate(await sessionOf(userId));
  expect(user?.id).toBe(userId);
  return server;
}

describe("createDb", () => {
  it("asUser runs every statement as the session's player, under RLS, with the request clock", async () => {
    const server = await signedIn(alice, new Date("2030-01-01T00:00:00Z"));
    const seen = await server.asUser(alice, async (tx) => {
      const [who] = await tx`select auth.uid() as uid, current_user as role, public.app_now() as now`;
      const others = await tx`select id from public.profiles where id = ${bob}`;
      return { who, others: others.length };
    });
    expect(seen.who.uid).toBe(alice);
    expect(seen.who.role).toBe("authenticated");
    expect(new Date(seen.who.now).toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(seen.others).toBe(0);
    await server.finish();
  });

  it("an unknown or expired session is no user: reads sent with the check see nothing and are refused", async () => {
    const expired = await sessionOf(alice, new Date("2021-01-01T00:00:00Z"));
    for (const hash of [expired, "f".repeat(64)]) {
      const server = createDb(db.url, new Date("2025-01-01T00:00:00Z"));
      const checked = server.authenticate(hash);
      // A loader's read, sent in the same message as the check (as requireUserWith does).
      const read = server.asUser(alice, (tx) => tx`select auth.uid() as uid, count(*)::int as n from public.profiles where id = ${alice}`);
      expect(await checked).toBeNull();
      await expect(read).rejects.toThrow(/other than the session/);
      await server.finish();
    }
  });

  it("a session's user cannot act as another player", async () => {
    const server = await signedIn(alice);
    await expect(server.asUser(bob, (tx) => tx`select 1`)).rejects.toThrow(/other than the session/);
    await server.finish();
  });

  it("writes are committed by finish, and rolled back when a statement failed", async () => {
    const ok = await signedIn(alice);
    await ok.asUser(alice, (tx) => tx`update public.profiles set time_zone = 'Europe/Paris' where id = ${alice}`);
    await ok.finish();
    expect((await db.sql`select time_zone from public.profiles where id = ${alice}`)[0].time_zone).toBe("Europe/Paris");

    const bad = await signedIn(alice);
    await bad.asUser(alice, (tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`);
    await expect(bad.asUser(alice, (tx) => tx`select 1/0`)).rejects.toThrow(/division by zero/);
    await bad.finish();
    expect((await db.sql`select time_zone from public.profiles where id = ${alice}`)[0].time_zone).toBe("Europe/Paris");
  });

  it("values written in as literals come back exactly as sent", async () => {
    const server = await signedIn(alice);
    const texts = [
      "plain",
      "it's",
      "back\\slash \\' quote",
      "$$ dollar $tag$",
      "-- comment /* x */",
      "line\nbreak\ttab",
      "ünïcødé 😀 日本",
      "' or 1=1 --",
      "E'\\x00'",
      "\\",
      "'",
      "''",
    ];
    for (const text of texts) {
      const [row] = await server.asUser(alice, (tx) => tx`select ${text}::text as t, ${42}::int as n, ${true} as b, ${null}::text as z`);
      expect(row).toEqual({ t: text, n: 42, b: true, z: null });
    }
    const when = new Date("2026-11-23T12:34:56.789Z");
    const [row] = await server.asUser(alice, (tx) => tx`select ${when} as at, ${"a"} || ${"b"} as ab`);
    expect(new Date(row.at).toISOString()).toBe(when.toISOString());
    expect(row.ab).toBe("ab");
    await server.finish();
  });

  it("serviceTransaction sets the request clock before the first query", async () => {
    const server = createDb(db.url, new Date("2031-05-06T07:08:09Z"));
    const now = await server.serviceTransaction(async (tx) => (await tx`select public.app_now() as now`)[0].now);
    expect(new Date(now).toISOString()).toBe("2031-05-06T07:08:09.000Z");
  });

  it("counts the statements it sends", async () => {
    const server = await signedIn(alice);
    await server.asUser(alice, async (tx) => Promise.all([tx`select 1`, tx`select 2`]));
    // The clock and the session check, then two queries (BEGIN rides in the first message); COMMIT at finish.
    expect(server.statementCount()).toBe(4);
    await server.finish();
    expect(server.statementCount()).toBe(5);
  });

  it("counts a query built from fragments once, and unsafe statements too", async () => {
    const server = await signedIn(alice);
    const type = "season";
    const rows = await server.asUser(
      alice,
      async (tx) => tx`select 1 as one where true ${type ? tx`and ${type} = 'season'` : tx``} ${tx`and 2 = 2`}`,
    );
    expect(rows).toHaveLength(1);
    // The clock, the session check, the one query (its two fragments are not statements).
    expect(server.statementCount()).toBe(3);
    await server.serviceStatement((sql) => sql.unsafe("select 1"));
    expect(server.statementCount()).toBe(4);
    await server.finish();
  });

  it("rolls the whole transaction back when a query fails", async () => {
    const server = createDb(db.url, new Date());
    await expect(
      server.serviceTransaction(async (tx) => {
        await tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`;
        await tx`select 1/0`;
      }),
    ).rejects.toThrow(/division by zero/);
    const [row] = await db.sql`select time_zone from public.profiles where id = ${alice}`;
    expect(row.time_zone).not.toBe("Asia/Tokyo");
    // The client is still usable afterwards.
    expect(await server.serviceTransaction(async (tx) => (await tx`select 1 as one`)[0].one)).toBe(1);
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
      const thrown = await server.serviceTransaction(query).then(
        (r) => r,
        (e: unknown) => e,
      );
      expect(thrown, String(query)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
    }
    await expect(server.serviceTransaction((tx) => tx`select 1/0`)).rejects.toThrow(/division by zero/);
  });

  it("on the player path too, a NUL character or an out-of-range number is a 400", async () => {
    for (const query of [
      (tx: PlayerSql) => tx`select ${"a\u0000b"}::text`,
      (tx: PlayerSql) => tx`select ${"99999999999999999999"}::int`,
      (tx: PlayerSql) => tx`select ${Number.NaN}::int`,
    ]) {
      const server = await signedIn(alice);
      const thrown = await server.asUser(alice, query).then(
        (r) => r,
        (e: unknown) => e,
      );
      expect(thrown, String(query)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
      await server.finish();
    }
  });
});
