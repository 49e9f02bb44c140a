/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * The push queue consumer in workerd: a replayed message sends nothing twice, a subscription the push service
 * calls gone (404/410) is removed, 5xx and 429 are retried with backoff. Deliveries are written straight into the
 * database and handed to the consumer as a queue batch, so each test controls its messages.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import worker from "../../workers/scheduler/index";
import { backoffSeconds } from "../../workers/scheduler/deliver";
import type { DeliveryMessage } from "../../workers/scheduler/queue";
import type { Sql } from "../support/factories";
import { db, received, requests, respondWith, subscribedPlayer, settle } from "./arrange";

type WorkerEnv = Parameters<NonNullable<typeof worker.queue>>[1];

let sql: Sql;
beforeAll(() => {
  sql = db();
});
afterAll(settle);

/** A queued reminder push for the player's subscription; returns the delivery id. */
async function queuedDelivery(userId: string): Promise<number> {
  const [{ id }] = await sql<{ id: string }[]>`
    insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link)
    select ${userId}, s.id, '3h', 'FootyCoach', 'Final reminder: team selection closes in 3 hours.', '/dashboard'
      from public.push_subscriptions s where s.user_id = ${userId}
    returning id`;
  return Number(id);
}

let messageCounter = 0;
async function consume(ids: number[]) {
  const batch = createMessageBatch<DeliveryMessage>("footycoach-push", [
    { id: `m${++messageCounter}`, timestamp: new Date(), attempts: 1, body: { ids } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue!(batch, env as unknown as WorkerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return getQueueResult(batch, ctx);
}

const delivery = async (id: number) =>
  (
    await sql<{ state: string; attempts: number; last_status: number | null; provider: string | null }[]>`
    select state, attempts, last_status, provider from private.push_deliveries where id = ${id}`
  )[0];

describe("push queue consumer", () => {
  it("sends a delivery once even when its message is replayed", async () => {
    const player = await subscribedPlayer(sql);
    const id = await queuedDelivery(player.id);
    await consume([id]);
    const replay = await consume([id]);
    await Promise.all([consume([id]), consume([id])]);
    expect(replay.explicitAcks).toHaveLength(1);
    expect(await delivery(id)).toMatchObject({ state: "sent", attempts: 1, last_status: 201 });
    expect(await received(player.subscription.endpoint)).toHaveLength(1);
  });

  for (const status of [404, 410]) {
    it(`removes a subscription the push service answers ${status}`, async () => {
      const player = await subscribedPlayer(sql);
      const id = await queuedDelivery(player.id);
      await respondWith(player.subscription.endpoint, [status]);
      await consume([id]);
      expect(await delivery(id)).toMatchObject({ state: "gone", last_status: status });
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from public.push_subscriptions where user_id = ${player.id}`;
      expect(n).toBe(0);
    });
  }

  it("never contacts a stored endpoint off the known push services: the delivery is refused and the subscription removed", async () => {
    // Rows written straight into the table (not through save-subscription), each aimed at the local push service's
    // subscription by its path: were the sender to POST, the override would carry it there and it would be seen.
    for (const origin of [
      "https://127.0.0.1",
      "https://169.254.169.254",
      "https://2130706433",
      "https://fcm.googleapis.com.evil.example",
    ]) {
      const player = await subscribedPlayer(sql);
      const path = new URL(player.subscription.endpoint).pathname;
      await sql`update public.push_subscriptions set endpoint = ${origin + path} where user_id = ${player.id}`;
      const id = await queuedDelivery(player.id);
      await consume([id]);
      expect(await delivery(id), origin).toMatchObject({ state: "gone", attempts: 1, last_status: null, provider: "refused" });
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from public.push_subscriptions where user_id = ${player.id}`;
      expect(n, origin).toBe(0);
      expect(await requests(player.subscription.endpoint), origin).toEqual([]);
    }
  });

  for (const status of [500, 429]) {
    it(`retries after ${status} with backoff and then delivers`, async () => {
      const player = await subscribedPlayer(sql);
      const id = await queuedDelivery(player.id);
      await respondWith(player.subscription.endpoint, [status]);
      const first = await consume([id]);
      expect(await delivery(id)).toMatchObject({ state: "retry", attempts: 1, last_status: status });
      expect(first.retryMessages).toHaveLength(1); // the message comes back (after backoffSeconds, below)
      const second = await consume([id]); // the queue's redelivery
      expect(second.explicitAcks).toHaveLength(1);
      expect(await delivery(id)).toMatchObject({ state: "sent", attempts: 2, last_status: 201 });
      expect(await received(player.subscription.endpoint)).toHaveLength(1);
    });
  }

  it("sends to an FCM token through FCM HTTP v1 with the service account", async () => {
    const player = await subscribedPlayer(sql);
    const token = `fcm-${crypto.randomUUID()}`;
    await sql`delete from public.push_subscriptions where user_id = ${player.id}`;
    await sql`insert into public.push_subscriptions (user_id, kind, fcm_token) values (${player.id}, 'fcm', ${token})`;
    const id = await queuedDelivery(player.id);
    await consume([id]);
    expect(await delivery(id)).toMatchObject({ state: "sent", attempts: 1, last_status: 200 });
    const res = await fetch(`${inject("fcmServiceUrl")}/__control/received?token=${encodeURIComponent(token)}`);
    const got = await res.json<{ message: { notification: { title: string; body: string }; data: { link: string } } }[]>();
    expect(got).toHaveLength(1);
    expect(got[0].message.notification).toEqual({ title: "FootyCoach", body: "Final reminder: team selection closes in 3 hours." });
    expect(got[0].message.data.link).toBe("http://footycoach.test/dashboard");
  });

  it("backs off 30 s doubling to 15 minutes, or longer when the service's Retry-After says so", () => {
    expect([1, 2, 3, 6, 9].map((attempts) => backoffSeconds(attempts, null))).toEqual([30, 60, 120, 900, 900]);
    expect(backoffSeconds(1, 120)).toBe(120);
    expect(backoffSeconds(3, 10)).toBe(120);
  });

  it("gives up after five attempts", async () => {
    const player = await subscribedPlayer(sql);
    const id = await queuedDelivery(player.id);
    await respondWith(player.subscription.endpoint, [503, 503, 503, 503, 503, 503]);
    for (let i = 0; i < 5; i++) await consume([id]);
    expect(await delivery(id)).toMatchObject({ state: "failed", attempts: 5, last_status: 503 });
    const after = await consume([id]);
    expect(after.explicitAcks).toHaveLength(1);
    expect(await delivery(id)).toMatchObject({ attempts: 5 });
  });

  it("drops a malformed message instead of retrying it forever", async () => {
    const batch = createMessageBatch("footycoach-push", [
      { id: "bad", timestamp: new Date(), attempts: 1, body: { ids: ["1; drop table"] } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue!(batch as never, env as unknown as WorkerEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["bad"]);
  });
});

describe("the scheduler's HTTP side", () => {
  it("says what it is", async () => {
    const res = await worker.fetch!(new Request("http://scheduler.test/") as never, env as never, createExecutionContext());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service: "footycoach-scheduler" });
  });
});
