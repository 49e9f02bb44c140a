import { atTime, type Sql } from "../db";
import { FootballDataClient, type FeedFailure } from "./client";
import { mapMatchesResponse } from "./map";
import type { LiveNotifier, NotifyOutcome } from "../../web/live-notify";

/**
 * The feed job of one tick (decision 020): league by league, claim the next one due (private.claim_due_feed_league
 * decides: asked for, backoff over, every 15 minutes, every minute around its matches), read its season from
 * football-data.org, and write it in one transaction (private.sync_feed_league: fixtures, kickoffs, match days,
 * live scores and results through the admin's result path). The request happens between transactions, never
 * inside one. A league that fails records its error and backoff and the job goes on with the next; at most one
 * request per linked league per tick, and none once the plan's minute budget is spent.
 *
 * After a league's transaction COMMITs, the live pages of the match days it wrote are told (decision 022,
 * `notifyLive`: one notify per match day, not per fixture), without waiting for it before the next league; a failed
 * notify is logged and counted (live_failed), never a failure of the job and never a reason to undo the sync.
 */

export interface FeedSettings {
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Tells the LiveMatchDay objects of these match days (workers/web/live-notify.ts); without it nobody is told. */
  notifyLive?: LiveNotifier;
}

export interface Claimed {
  league: string;
  season: string;
  code: string;
  season_year: number;
}

export interface SyncSummary {
  created?: number;
  updated?: number;
  results?: number;
  corrections?: number;
  refused?: number;
  kept?: number;
  skipped?: number;
  /** The match days the sync wrote a match of (their live pages are told after COMMIT). */
  match_days?: number[];
}

async function recordFailure(
  sql: Sql,
  now: Date,
  league: Claimed,
  failure: Pick<FeedFailure, "message" | "kind" | "retryAfterSeconds">,
  requests: number,
) {
  await atTime(
    sql,
    now,
    (tx) => tx`select private.record_feed_failure(${league.league}, ${league.season}, ${now}, ${failure.message},
                 ${failure.retryAfterSeconds}::int, ${failure.kind === "rate_limited"}, ${requests}::int)`,
  );
}

/** What one league's turn came to: synced (with the sync's summary), or failed (recorded with its backoff). */
export type LeagueOutcome = { kind: "synced"; summary: SyncSummary; skippedMatches: number } | { kind: "failed"; message: string };

/** The time the job's HTTP and database steps took, per kind (kept in private.job_runs with its summary). */
export interface Timings {
  db_ms: number;
  http_ms: number;
}

/**
 * One claimed league's turn (a feed tick's, or Sync now's: feed/sync-now.ts): its season read from the feed, then
 * written in one transaction, or the failure recorded. When the answer spent the plan's minute budget, every league
 * waits for the counter's reset (private.pause_feed_requests), whoever asks next. After the COMMIT the live pages of
 * the match days it wrote are told: the notify is pushed on `notifying`, not awaited here.
 */
export async function syncClaimedLeague(
  sql: Sql,
  client: FootballDataClient,
  settings: FeedSettings,
  now: Date,
  league: Claimed,
  timings: Timings,
  notifying: Promise<NotifyOutcome>[],
): Promise<LeagueOutcome> {
  const timed = async <T>(key: keyof Timings, work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await work();
    } finally {
      timings[key] += Date.now() - started;
    }
  };
  const label = `${league.league} ${league.season} (${league.code} ${league.season_year})`;
  const failed = async (failure: Pick<FeedFailure, "message" | "kind" | "retryAfterSeconds">, requests: number) => {
    await timed("db_ms", () => recordFailure(sql, now, league, failure, requests));
    return { kind: "failed", message: failure.message } as const;
  };

  if (!settings.token) {
    return failed({ kind: "auth", message: "FOOTBALL_DATA_TOKEN is not set: the feed cannot be read.", retryAfterSeconds: null }, 0);
  }
  const before = client.requests;
  const answer = await timed("http_ms", () => client.competitionMatches(league.code, league.season_year));
  const requests = client.requests - before;
  const spent = client.budgetSpentForSeconds();
  if (spent !== null) {
    const until = new Date(now.getTime() + spent * 1000);
    await timed("db_ms", () => atTime(sql, now, (tx) => tx`select private.pause_feed_requests(${until})`));
  }
  if (!answer.ok) {
    console.warn(`feed ${label}: ${answer.failure.message}`);
    return failed(answer.failure, requests);
  }
  const mapped = mapMatchesResponse(answer.body);
  if (!mapped.ok) {
    console.warn(`feed ${label}: ${mapped.error}`);
    return failed({ kind: "malformed", message: mapped.error, retryAfterSeconds: null }, requests);
  }
  if (mapped.skipped.length > 0) {
    const reasons = [...new Set(mapped.skipped.map((s) => s.reason))].slice(0, 5).join("; ");
    console.warn(`feed ${label}: ${mapped.skipped.length} match(es) skipped: ${reasons}`);
  }
  let summary: SyncSummary;
  try {
    const [{ result }] = await timed("db_ms", () =>
      atTime(
        sql,
        now,
        (tx) => tx<{ result: SyncSummary }[]>`
          select private.sync_feed_league(${league.league}, ${league.season}, ${tx.json(mapped.rows as never)}, ${now}, ${requests}::int)
                   as result`,
      ),
    );
    summary = typeof result === "string" ? (JSON.parse(result) as SyncSummary) : result;
  } catch (error) {
    // Nothing of this league was written (one transaction); the next attempt comes after the backoff.
    const message = String((error as Error)?.message ?? error).slice(0, 300);
    console.error(`feed ${label}: could not save: ${message}`);
    return failed({ kind: "refused", message: `The feed's data could not be saved: ${message}`, retryAfterSeconds: null }, requests);
  }
  // Committed (atTime returned): tell the live pages of the match days it wrote, while the job goes on.
  const matchDays = Array.isArray(summary.match_days) ? summary.match_days.filter((md) => Number.isInteger(md)) : [];
  if (settings.notifyLive && matchDays.length > 0) {
    notifying.push(
      settings
        .notifyLive(matchDays.map((matchDay) => ({ league: league.league, season: league.season, matchDay })))
        .catch((error: unknown) => {
          console.error(`feed ${label}: live notify failed: ${String((error as Error)?.message ?? error).slice(0, 300)}`);
          return { notified: 0, failed: matchDays.length };
        }),
    );
  }
  return { kind: "synced", summary, skippedMatches: mapped.skipped.length };
}

export async function runFeed(sql: Sql, settings: FeedSettings, now: Date): Promise<Record<string, number>> {
  const [{ linked }] = await sql<{ linked: number }[]>`select count(*)::int as linked from public.feed_leagues where linked`;
  const client = new FootballDataClient({ baseUrl: settings.url, token: settings.token, fetch: settings.fetch });
  // db_ms / http_ms: where the tick's time went (kept in private.job_runs with the rest of the summary)
  const summary = {
    leagues: 0,
    synced: 0,
    failed: 0,
    requests: 0,
    fixtures: 0,
    results: 0,
    corrections: 0,
    skipped: 0,
    db_ms: 0,
    http_ms: 0,
    live_notified: 0,
    live_failed: 0,
  };
  const notifying: Promise<NotifyOutcome>[] = [];

  // The notifies of committed leagues are awaited even when a later league's step throws (the tick fails then, but
  // what was committed is still told).
  const told = async () => {
    for (const outcome of await Promise.all(notifying)) {
      summary.live_notified += outcome.notified;
      summary.live_failed += outcome.failed;
    }
  };
  try {
    for (let i = 0; i < linked && client.canRequest(); i++) {
      const started = Date.now();
      const [league] = await atTime(sql, now, (tx) => tx<Claimed[]>`select * from private.claim_due_feed_league(${now})`);
      summary.db_ms += Date.now() - started;
      if (!league) break;
      summary.leagues++;
      const outcome = await syncClaimedLeague(sql, client, settings, now, league, summary, notifying);
      if (outcome.kind === "failed") {
        summary.failed++;
        continue;
      }
      const r = outcome.summary;
      summary.synced++;
      summary.fixtures += (r.created ?? 0) + (r.updated ?? 0);
      summary.results += r.results ?? 0;
      summary.corrections += r.corrections ?? 0;
      summary.skipped += (r.skipped ?? 0) + outcome.skippedMatches;
    }
  } catch (error) {
    await told();
    throw error;
  }
  await told();
  summary.requests = client.requests;
  return summary;
}
