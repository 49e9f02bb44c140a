import { WorkerEntrypoint } from "cloudflare:workers";
import { atTime, connect } from "../db";
import { feedNotConfigured, pushNotConfigured, readSchedulerEnv, type SchedulerBindings, type SchedulerEnv } from "../env";
import { enqueueDeliveries } from "../queue";
import { takeNoticeDeliveries } from "../jobs";
import { liveNotifier, type NotifyOutcome } from "../../web/live-notify";
import { FootballDataClient } from "./client";
import { syncClaimedLeague, type Claimed } from "./job";

/**
 * "Sync now" at once (decision 027). The admin panel's request is committed by the web Worker, which then asks this
 * Worker, the only writer of feed data (decision 020), through the service binding FEED_SYNC (an RPC entrypoint: no
 * public URL reaches it). The league is claimed as a feed tick claims it (private.claim_requested_feed_league):
 * when its budget allows a request now (not within 50 seconds of its last one, not while the plan's budget pauses
 * the feed), it is read and written exactly as a tick would (syncClaimedLeague); otherwise the answer says when the
 * feed tick that will sync it runs (public.feed_sync_expected_at), and the request stays for that tick.
 */

export interface SyncNowRequest {
  league: string;
  season: string;
  /** The caller's clock (ISO). Honoured outside production only, like a tick's scheduled time (index.ts). */
  at?: string;
}

export type SyncNowAnswer =
  /** Read and saved: what the sync changed. */
  | { status: "synced"; fixtures: number; results: number }
  /** Read and not saved: the league's last error, as the admin panel shows it (its backoff recorded). */
  | { status: "failed"; message: string }
  /** Not now: the first feed tick at or after `at` (ISO) syncs it. */
  | { status: "waiting"; at: string }
  /** Nothing asked for (not linked, or a tick synced it meanwhile). */
  | { status: "not_requested" }
  /** The feed's settings are unusable: the feed job reports the same. */
  | { status: "unavailable"; message: string };

function clock(env: SchedulerEnv, at: string | undefined): Date {
  if (env.ENVIRONMENT === "production" || !at) return new Date();
  const t = Date.parse(at);
  return Number.isNaN(t) ? new Date() : new Date(t);
}

export async function syncNow(
  env: SchedulerEnv,
  request: SyncNowRequest,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<SyncNowAnswer> {
  const feedOff = feedNotConfigured(env);
  if (feedOff) return { status: "unavailable", message: feedOff };
  const now = clock(env, request.at);
  const sql = connect(env);
  const [league] = await atTime(
    sql,
    now,
    (tx) => tx<Claimed[]>`select * from private.claim_requested_feed_league(${request.league}, ${request.season}, ${now})`,
  );
  if (!league) {
    const [row] = await atTime(
      sql,
      now,
      (tx) => tx<{ requested: boolean; expected_at: Date }[]>`
        select l.linked and l.sync_requested_at is not null as requested,
               public.feed_sync_expected_at(l.last_attempt_at, ${now}) as expected_at
          from public.feed_leagues l
         where l.league = ${request.league} and l.season = ${request.season}`,
    );
    return row?.requested ? { status: "waiting", at: new Date(row.expected_at).toISOString() } : { status: "not_requested" };
  }

  const notifying: Promise<NotifyOutcome>[] = [];
  const outcome = await syncClaimedLeague(
    sql,
    new FootballDataClient({ baseUrl: env.FOOTBALL_DATA_URL, token: env.FOOTBALL_DATA_TOKEN }),
    { url: env.FOOTBALL_DATA_URL, token: env.FOOTBALL_DATA_TOKEN, notifyLive: liveNotifier(env.LIVE) },
    now,
    league,
    { db_ms: 0, http_ms: 0 },
    notifying,
  );
  // After the answer: the live pages of what it wrote, and the pushes of the notices its corrections made (as a
  // feed tick does; the next tick would take them otherwise).
  waitUntil(
    (async () => {
      await Promise.all(notifying);
      if (outcome.kind !== "synced" || !outcome.summary.corrections || pushNotConfigured(env)) return;
      await enqueueDeliveries(env.PUSH_QUEUE, await takeNoticeDeliveries(sql, now));
    })().catch((error: unknown) => console.error(`sync now ${request.league} ${request.season}:`, (error as Error)?.message ?? error)),
  );
  if (outcome.kind === "failed") return { status: "failed", message: outcome.message };
  const r = outcome.summary;
  return { status: "synced", fixtures: (r.created ?? 0) + (r.updated ?? 0), results: r.results ?? 0 };
}

/** The RPC entrypoint the web Worker's FEED_SYNC service binding names (wrangler.toml: entrypoint = "FeedSync"). */
export class FeedSync extends WorkerEntrypoint<SchedulerBindings> {
  async syncNow(request: SyncNowRequest): Promise<SyncNowAnswer> {
    const league = typeof request?.league === "string" ? request.league.slice(0, 60) : "";
    const season = typeof request?.season === "string" ? request.season.slice(0, 20) : "";
    if (!league || !season) return { status: "not_requested" };
    return syncNow(readSchedulerEnv(this.env), { league, season, at: request.at }, (work) => this.ctx.waitUntil(work));
  }
}
