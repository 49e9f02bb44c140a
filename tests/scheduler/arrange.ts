/**
 * Arrange steps of the scheduler tests, run inside workerd: postgres.js on the Worker's own Hyperdrive binding
 * (the real database of tests/scheduler/global-db.ts) and the local push service's control API.
 */
import { env } from "cloudflare:test";
import postgres from "postgres";
import { addMember, createCompetition, createLeague, createPlayer, uniqueTag, type Sql } from "../support/factories";
import { eventually } from "../support/eventually";
import { WEB_PUSH_SERVER_PORT } from "./ports";

export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export function db(): Sql {
  return postgres((env as unknown as { HYPERDRIVE: Hyperdrive }).HYPERDRIVE.connectionString, {
    max: 4,
    fetch_types: false,
    prepare: false,
    onnotice: () => {},
  });
}

export const PUSH_SERVICE = `http://127.0.0.1:${WEB_PUSH_SERVER_PORT}`;

export interface LocalSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export async function newSubscriptions(count = 1): Promise<LocalSubscription[]> {
  const res = await fetch(`${PUSH_SERVICE}/__control/subscriptions`, { method: "POST", body: JSON.stringify({ count }) });
  if (!res.ok) throw new Error(`local push service: ${res.status}`);
  return res.json();
}

export interface ReceivedPush {
  payload: { title: string; body: string; icon: string; tag: string; link: string };
}

/** The pushes the local push service accepted (decrypted and with a valid VAPID token) for this endpoint. */
export async function received(endpoint: string): Promise<ReceivedPush[]> {
  const res = await fetch(`${PUSH_SERVICE}/__control/received?endpoint=${encodeURIComponent(endpoint)}`);
  if (!res.ok) throw new Error(`local push service: ${res.status}`);
  return (await res.json<(ReceivedPush & { status: number })[]>()).filter((r) => r.status === 201);
}

/** Every request the local push service got for this endpoint, refused ones too (was it contacted at all?). */
export async function requests(endpoint: string): Promise<(ReceivedPush & { status: number })[]> {
  const res = await fetch(`${PUSH_SERVICE}/__control/received?endpoint=${encodeURIComponent(endpoint)}`);
  if (!res.ok) throw new Error(`local push service: ${res.status}`);
  return res.json();
}

/** Makes the local push service answer the next requests to this endpoint with these statuses. */
export async function respondWith(endpoint: string, statuses: number[]): Promise<void> {
  const res = await fetch(`${PUSH_SERVICE}/__control/respond`, { method: "POST", body: JSON.stringify({ endpoint, statuses }) });
  if (!res.ok) throw new Error(`local push service: ${res.status}`);
}

/** A player with notifications on and a Web Push subscription at the local push service. */
export async function subscribedPlayer(sql: Sql, username = `P${uniqueTag()}`) {
  const player = await createPlayer(sql, { username });
  const [sub] = await newSubscriptions(1);
  await sql`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
            values (${player.id}, 'webpush', ${sub.endpoint}, ${sub.p256dh}, ${sub.auth})`;
  await sql`update public.profiles set notifications_enabled = true where id = ${player.id}`;
  return { ...player, subscription: sub };
}

/**
 * A league of its own whose match day 1 first kicks off at `kickoff` (so its deadline is an hour before), and
 * a knockout competition on it. Each test uses its own time window, so the match days of other tests are not due.
 */
export async function leagueWithCompetition(sql: Sql, kickoff: Date, opts: { name?: string; registrationStatus?: "open" | "closed" } = {}) {
  const league = `League ${uniqueTag()}`;
  await createLeague(sql, {
    league,
    matchDays: 2,
    firstKickoff: kickoff,
    pairs: [
      ["Arsenal", "Chelsea"],
      ["Everton", "Fulham"],
    ],
  });
  const competition = await createCompetition(sql, { league, name: opts.name, registrationStatus: opts.registrationStatus });
  return { league, competition, deadline: new Date(kickoff.getTime() - HOUR) };
}

export { addMember, eventually };

/**
 * The end of a test file: every delivery the queue is working on has finished, so no consumer is mid-statement
 * when the file's isolate goes. (Connections are never closed from our side: postgres.js's end() or idle timeout
 * raises "Stream was cancelled" in workerd, docs/architecture.md.)
 */
export async function settle(): Promise<void> {
  const sql = db();
  await eventually(async () => {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from private.push_deliveries where state in ('queued', 'sending')`;
    return n === 0 ? true : undefined;
  }, 30_000);
}
