import { connect } from "./db";
import type { SchedulerEnv } from "./env";
import { readDeliveryMessage, type DeliveryMessage } from "./queue";
import { createFcmSender, parseServiceAccount } from "./push/fcm";
import { PUSH_DEFAULTS, type PushPayload, type SendOutcome } from "./push/payload";
import { createWebPushSender } from "./push/webpush";

/** Attempts per delivery, the first included; then it is failed (the queue's max_retries matches). */
export const MAX_ATTEMPTS = 5;
/** Sends in flight per consumer invocation (a Worker invocation has 6 simultaneous outgoing connections). */
const SEND_CONCURRENCY = 6;

interface Claimed {
  delivery_id: string;
  subscription_id: string;
  attempts: number;
  kind: "webpush" | "fcm";
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  fcm_token: string | null;
  title: string;
  body: string;
  link: string;
}

interface Outcome {
  id: number;
  state: "sent" | "retry" | "failed" | "gone";
  status: number | null;
  provider: string;
  retryAfterSeconds: number | null;
}

type Send = (claimed: Claimed, payload: PushPayload) => Promise<{ outcome: SendOutcome; provider: string }>;

// Senders keep their signed VAPID tokens and FCM access token between messages; kept per configuration
// (built lazily from the env of the first message, never at module load).
const senders = new Map<string, Send>();

function senderFor(env: SchedulerEnv): Send {
  const key = [env.PUSH_PROVIDER, env.VAPID_PUBLIC_KEY, env.PUSH_ENDPOINT_OVERRIDE, env.FCM_API_URL, env.FCM_SERVICE_ACCOUNT].join("\n");
  const known = senders.get(key);
  if (known) return known;
  let send: Send;
  if (env.PUSH_PROVIDER === "outbox") {
    // Development: nothing leaves the machine; the delivery is kept as sent to the outbox (/dev/outbox).
    send = () => Promise.resolve({ outcome: { status: 201, gone: false, retryable: false, retryAfterSeconds: null }, provider: "outbox" });
  } else {
    const webPush = env.VAPID_PUBLIC_KEY
      ? createWebPushSender({
          publicKey: env.VAPID_PUBLIC_KEY,
          privateKey: env.VAPID_PRIVATE_KEY,
          subject: env.VAPID_SUBJECT,
          endpointOverride: env.PUSH_ENDPOINT_OVERRIDE || null,
        })
      : null;
    const fcm = env.FCM_SERVICE_ACCOUNT
      ? createFcmSender({ serviceAccount: parseServiceAccount(env.FCM_SERVICE_ACCOUNT), apiBase: env.FCM_API_URL })
      : null;
    const unconfigured = { status: 0, gone: false, retryable: false, retryAfterSeconds: null };
    send = async (c, payload) => {
      if (c.kind === "fcm") {
        return { outcome: fcm && c.fcm_token ? await fcm(c.fcm_token, payload) : unconfigured, provider: "fcm" };
      }
      if (!webPush || !c.endpoint || !c.p256dh || !c.auth) return { outcome: unconfigured, provider: "webpush" };
      const outcome = await webPush({ endpoint: c.endpoint, p256dh: c.p256dh, auth: c.auth }, payload, {
        ttlSeconds: 3 * 3600,
        urgency: "high",
      });
      return { outcome, provider: "webpush" };
    };
  }
  senders.set(key, send);
  return send;
}

function stateOf(outcome: SendOutcome, attempts: number): Outcome["state"] {
  if (outcome.status >= 200 && outcome.status < 300) return "sent";
  if (outcome.gone) return "gone";
  if (outcome.retryable && attempts < MAX_ATTEMPTS) return "retry";
  return "failed";
}

/** Exponential backoff for a retry: 30 s, 60 s, 120 s, ... at most 15 minutes; a Retry-After wins when longer. */
export function backoffSeconds(attempts: number, retryAfter: number | null): number {
  const exponential = Math.min(30 * 2 ** Math.max(0, attempts - 1), 900);
  return Math.min(Math.max(exponential, retryAfter ?? 0), 3600);
}

async function eachLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The queue consumer: claims the messages' deliveries (only queued, retrying or stranded ones, so a replayed
 * message sends nothing twice), sends them, records what the push services answered (removing subscriptions
 * reported gone), and asks the queue to redeliver a message with backoff while any of its deliveries is to be
 * retried.
 */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: SchedulerEnv, now = new Date()): Promise<Outcome[]> {
  const bodies = batch.messages.map((m) => readDeliveryMessage(m.body));
  for (const [i, body] of bodies.entries()) if (!body) batch.messages[i].ack(); // malformed: nothing to do, never retried
  const ids = [...new Set(bodies.flatMap((b) => b?.ids ?? []))];
  if (ids.length === 0) return [];

  const sql = connect(env);
  // An array literal: without fetched types (Hyperdrive) postgres.js cannot serialise a JS array itself.
  const claimed = await sql<Claimed[]>`select * from private.claim_push_deliveries(${`{${ids.join(",")}}`}::bigint[], ${now})`;
  const send = senderFor(env);
  const outcomes = await eachLimited(claimed, SEND_CONCURRENCY, async (c): Promise<Outcome> => {
    const payload: PushPayload = {
      title: c.title || PUSH_DEFAULTS.title,
      body: c.body || PUSH_DEFAULTS.body,
      icon: PUSH_DEFAULTS.icon,
      tag: PUSH_DEFAULTS.tag,
      link: new URL(c.link, env.APP_URL).href,
    };
    let result: { outcome: SendOutcome; provider: string };
    try {
      result = await send(c, payload);
    } catch (error) {
      console.error("push send failed:", (error as Error)?.message ?? error);
      result = { outcome: { status: 0, gone: false, retryable: true, retryAfterSeconds: null }, provider: c.kind };
    }
    const { outcome } = result;
    let provider = result.provider;
    if (outcome.refused) {
      // Never contacted (app/lib/push-services.ts): the delivery is recorded as gone with provider 'refused', and
      // record_push_outcomes deletes the subscription, as for one the push service reported gone.
      console.warn(`push subscription ${c.subscription_id} refused and removed: ${outcome.refused}`);
      provider = "refused";
    }
    return {
      id: Number(c.delivery_id),
      state: stateOf(outcome, c.attempts),
      status: outcome.status || null,
      provider,
      retryAfterSeconds: outcome.retryAfterSeconds,
    };
  });
  if (outcomes.length > 0) {
    await sql`select private.record_push_outcomes(${sql.json(outcomes.map(({ id, state, status, provider }) => ({ id, state, status, provider })))}, ${now})`;
  }

  const retrying = new Map(outcomes.filter((o) => o.state === "retry").map((o) => [o.id, o]));
  const attemptsOf = new Map(claimed.map((c) => [Number(c.delivery_id), c.attempts]));
  batch.messages.forEach((message, i) => {
    const body = bodies[i];
    if (!body) return;
    const waiting = body.ids.map((id) => retrying.get(id)).filter((o): o is Outcome => o !== undefined);
    if (waiting.length === 0) {
      message.ack();
      return;
    }
    const delay = Math.max(...waiting.map((o) => backoffSeconds(attemptsOf.get(o.id) ?? 1, o.retryAfterSeconds)));
    message.retry({ delaySeconds: delay });
  });
  return outcomes;
}
