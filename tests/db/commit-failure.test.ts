/**
 * A write is never reported saved when its COMMIT failed (issue 18, item 1). The request's data path
 * (app/db/ (request-db, player-transaction)) must turn a failed COMMIT into a 503 answer, not a log line: here with a deferred trigger
 * that raises at COMMIT (as Scout scoring runs at commit) and with the connection cut as COMMIT goes out.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { startLatencyProxy, type LatencyProxy } from "../../scripts/latency-proxy";
import { createPlayer } from "../support/factories";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let proxy: LatencyProxy;
let alice: string;

/** The time zone the deferred trigger refuses, at COMMIT only (the UPDATE itself succeeds). */
const REFUSED_AT_COMMIT = "Pacific/Pitcairn";

beforeAll(async () => {
  db = await useTestDatabase();
  proxy = await startLatencyProxy({ target: db.url, delayMs: 0 });
  alice = (await createPlayer(db.sql, { username: "AliceCommit", email: "alice@commit.test" })).id;
  await db.sql.unsafe(`
    create function public.test_refuse_at_commit() returns trigger language plpgsql as $$
    begin
      if new.time_zone = '${REFUSED_AT_COMMIT}' then
        raise exception 'refused at commit' using errcode = 'P0001';
      end if;
      return new;
    end $$;
    create constraint trigger profiles_refuse_at_commit after update on public.profiles
      deferrable initially deferred for each row execute function public.test_refuse_at_commit();`);
});

afterAll(async () => {
  await proxy?.stop();
  await db?.close();
});

async function signedIn(url: string, userId: string) {
  const hash = createHash("sha256").update(`commit-${Math.random()}`).digest("hex");
  await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${userId}, '2020-01-01', '2099-01-01')`;
  const server = createDb(url, new Date());
  expect((await server.authenticate(hash))?.id).toBe(userId);
  return server;
}

async function timeZoneOf(userId: string): Promise<string | null> {
  return (await db.sql<{ time_zone: string | null }[]>`select time_zone from public.profiles where id = ${userId}`)[0].time_zone;
}

/** What a promise settles with: its value, or what it threw. */
const settled = (p: Promise<unknown>) =>
  p.then(
    (v) => v,
    (e: unknown) => e,
  );

describe("a failed COMMIT is an error answer, never success", () => {
  it("player path: a deferred trigger raising at COMMIT makes commit() throw a 503 and nothing is saved", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const server = await signedIn(db.url, alice);
    // The statement itself succeeds: only the COMMIT fails.
    const rows = await server.asUser(
      alice,
      (tx) => tx`update public.profiles set time_zone = ${REFUSED_AT_COMMIT} where id = ${alice} returning id`,
    );
    expect(rows).toHaveLength(1);
    const thrown = await settled(server.commit());
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    expect(await (thrown as Response).text()).toMatch(/could not be saved/);
    expect(await timeZoneOf(alice)).toBe("Europe/London");
    await server.finish();
  });

  it("player path: the connection cut as COMMIT goes out makes commit() throw a 503 and nothing is saved", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const server = await signedIn(proxy.url, alice);
    await server.asUser(alice, (tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`);
    // A simple-query message ('Q', length, text) holding exactly "commit".
    proxy.cutNext(new RegExp("Q[\\s\\S]{4}commit" + String.fromCharCode(0)));
    const thrown = await settled(server.commit());
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });

  it("player path: the Worker's finish() throws too (its safety net answers 503), when the action did not commit", async () => {
    const server = await signedIn(db.url, alice);
    await server.asUser(alice, (tx) => tx`update public.profiles set time_zone = ${REFUSED_AT_COMMIT} where id = ${alice}`);
    await expect(server.finish()).rejects.toThrow(/refused at commit/);
    expect(await timeZoneOf(alice)).not.toBe(REFUSED_AT_COMMIT);
  });

  it("player path: after a statement failed (its caller got the error), commit() rolls everything back", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const server = await signedIn(db.url, alice);
    await server.asUser(alice, (tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`);
    await expect(server.asUser(alice, (tx) => tx`select 1/0`)).rejects.toThrow(/division by zero/);
    await server.commit();
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });

  it("server path: a COMMIT refused by a deferred trigger is a 503, not the caller's success", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const server = createDb(db.url, new Date());
    const thrown = await settled(
      server.serviceTransaction((tx) => tx`update public.profiles set time_zone = ${REFUSED_AT_COMMIT} where id = ${alice}`),
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });

  it("server path: the connection cut at COMMIT is a 503", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const server = createDb(proxy.url, new Date());
    proxy.cutNext(/commit/);
    const thrown = await settled(
      server.serviceTransaction((tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice}`),
    );
    expect((thrown as Response).status).toBe(503);
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });

  it("after commit(), the request's later statements run in a new transaction as the same player, under RLS", async () => {
    const now = new Date("2031-02-03T04:05:06Z");
    const hash = createHash("sha256").update(`reopen-${Math.random()}`).digest("hex");
    await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${alice}, '2020-01-01', '2099-01-01')`;
    const server = createDb(db.url, now);
    await server.authenticate(hash);
    await server.asUser(alice, (tx) => tx`update public.profiles set time_zone = 'America/Denver' where id = ${alice}`);
    await server.commit();
    expect(await timeZoneOf(alice)).toBe("America/Denver");
    const [who] = await server.asUser(alice, (tx) => tx`select auth.uid() as uid, current_user as role, public.app_now() as now`);
    expect(who.uid).toBe(alice);
    expect(who.role).toBe("authenticated");
    expect(new Date(who.now as string).toISOString()).toBe(now.toISOString());
    await server.finish();
  });
});

describe("a write whose COMMIT travels in its own message (commitWithQueued, decision 024)", () => {
  /** A write the player path sends as a read (as `select public.save_team_selection(...)` is): grouped with the check. */
  const setTimeZone = (zone: string) => (tx: Parameters<Parameters<ReturnType<typeof createDb>["asUser"]>[1]>[0]) =>
    tx`with u as (update public.profiles set time_zone = ${zone} where id = ${alice} returning id) select count(*)::int as n from u`;

  async function signedInLazily(url: string) {
    const hash = createHash("sha256").update(`queued-${Math.random()}`).digest("hex");
    await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${alice}, '2020-01-01', '2099-01-01')`;
    return { server: createDb(url, new Date()), hash };
  }

  it("check, write and COMMIT go in one message: saved once its result is there, and later statements open a new transaction", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const { server, hash } = await signedInLazily(proxy.url);
    proxy.reset();
    const checked = server.authenticate(hash);
    const written = server.asUser(alice, setTimeZone("Asia/Tokyo"));
    server.commitWithQueued();
    expect((await checked)?.id).toBe(alice);
    expect(await written).toEqual([{ n: 1 }]);
    // Committed before anything else is sent: another connection sees it.
    expect(await timeZoneOf(alice)).toBe("Asia/Tokyo");
    await proxy.settle();
    const snapshot = proxy.snapshot();
    expect(snapshot.queryRoundTrips).toBe(1);
    await server.commit(); // nothing left to commit: no statement, no error
    const [who] = await server.asUser(alice, (tx) => tx`select auth.uid() as uid, current_user as role`);
    expect(who).toEqual({ uid: alice, role: "authenticated" });
    await server.finish();
  });

  it("a COMMIT refused at the end of the message rejects the write itself; nothing is saved", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const { server, hash } = await signedInLazily(db.url);
    const checked = settled(server.authenticate(hash));
    const written = settled(server.asUser(alice, setTimeZone(REFUSED_AT_COMMIT)));
    server.commitWithQueued();
    await checked;
    expect(String(await written)).toMatch(/refused at commit/);
    expect(await timeZoneOf(alice)).toBe("Europe/London");
    // The caller already has the error: commit() and finish() roll back what is left, without a throw.
    await server.commit();
    await server.finish();
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });

  it("a write that fails before its COMMIT leaves nothing, and the connection is usable again", async () => {
    await db.sql`update public.profiles set time_zone = 'Europe/London' where id = ${alice}`;
    const { server, hash } = await signedInLazily(db.url);
    const checked = settled(server.authenticate(hash));
    const written = settled(
      server.asUser(
        alice,
        (tx) => tx`with u as (update public.profiles set time_zone = 'Asia/Tokyo' where id = ${alice} returning 1/0 as x) select * from u`,
      ),
    );
    server.commitWithQueued();
    await checked;
    expect(String(await written)).toMatch(/division by zero/);
    // The server path of the same request still works (its own connection), and the player path ends cleanly.
    const [{ one }] = await server.serviceStatement((sql) => sql`select 1 as one`);
    expect(one).toBe(1);
    await server.commit();
    await server.finish();
    expect(await timeZoneOf(alice)).toBe("Europe/London");
  });
});
