/**
 * A request's transaction ends once, and every caller of finish() waits for that COMMIT (decision 023, addendum 3).
 * A read calls finish() before its render (entry.server.tsx) and the Worker calls it again in waitUntil; the Worker's
 * call is what keeps the request, and so its database socket, open until the COMMIT is answered. When the second call
 * resolved at once, the request ended with the COMMIT in flight and the pooler dropped the server connection.
 * Here the COMMIT travels through a proxy that adds 40 ms each way, and a write shows whether it was in.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { startLatencyProxy, type LatencyProxy } from "../../scripts/latency-proxy";
import { createPlayer } from "../support/factories";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let proxy: LatencyProxy;
let player: string;

beforeAll(async () => {
  db = await useTestDatabase();
  proxy = await startLatencyProxy({ target: db.url, delayMs: 0 });
  player = (await createPlayer(db.sql, { username: "FinishOnce", email: "finish@once.test" })).id;
});

afterAll(async () => {
  await proxy?.stop();
  await db?.close();
});

async function signedIn() {
  const hash = createHash("sha256").update(`finish-${Math.random()}`).digest("hex");
  await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${player}, '2020-01-01', '2099-01-01')`;
  const request = createDb(proxy.url, new Date());
  expect((await request.authenticate(hash))?.id).toBe(player);
  return request;
}

const timeZone = async () =>
  (await db.sql<{ time_zone: string | null }[]>`select time_zone from public.profiles where id = ${player}`)[0].time_zone;

describe("finish()", () => {
  it("every call waits for the one COMMIT, however many times it is called", async () => {
    const request = await signedIn();
    await request.asUser(player, (sql) => sql`update public.profiles set time_zone = 'Europe/Lisbon' where id = ${player}`);
    expect(await timeZone()).not.toBe("Europe/Lisbon"); // not committed yet
    proxy.setDelay(40);
    try {
      const first = request.finish(); // the read's, before its render
      const second = request.finish(); // the Worker's, in waitUntil
      await second;
      // The COMMIT was answered before the second call resolved: the change is in for everyone.
      expect(await timeZone()).toBe("Europe/Lisbon");
      await first;
      expect(request.statementCount()).toBe(4); // the clock, the session check, the UPDATE and one COMMIT
    } finally {
      proxy.setDelay(0);
    }
  });

  it("a finished transaction takes no more statements, and finishing again changes nothing", async () => {
    const request = await signedIn();
    await request.finish();
    await expect(request.asUser(player, (sql) => sql`select 1`)).rejects.toBeDefined();
    await expect(request.finish()).resolves.toBeUndefined();
  });
});
