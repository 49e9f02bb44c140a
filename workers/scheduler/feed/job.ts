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

interface Claimed {
  league: string;
  season: string;
  code: string;
  season_year: number;
}

interface SyncSummary {
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
  const timed = async <T>(key: "db_ms" | "http_ms", work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await work();
    } finally {
      summary[key] += Date.now() - started;
    }
  };

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
      const [league] = await timed("db_ms", () =>
        atTime(sql, now, (tx) => tx<Claimed[]>`select * from private.claim_due_feed_league(${now})`),
      );
      if (!league) break;
      summary.leagues++;
      const label = `${league.league} ${league.season} (${league.code} ${league.season_year})`;

      if (!settings.token) {
        await timed("db_ms", () =>
          recordFailure(
            sql,
            now,
            league,
            { kind: "auth", message: "FOOTBALL_DATA_TOKEN is not set: the feed cannot be read.", retryAfterSeconds: null },
            0,
          ),
        );
        summary.failed++;
        continue;
      }
      const before = client.requests;
      const answer = await timed("http_ms", () => client.competitionMatches(league.code, league.season_year));
      const requests = client.requests - before;
      if (!answer.ok) {
        console.warn(`feed ${label}: ${answer.failure.message}`);
        await timed("db_ms", () => recordFailure(sql, now, league, answer.failure, requests));
        summary.failed++;
        continue;
      }
      const mapped = mapMatchesResponse(answer.body);
      if (!mapped.ok) {
        console.warn(`feed ${label}: ${mapped.error}`);
        await timed("db_ms", () =>
          recordFailure(sql, now, league, { kind: "malformed", message: mapped.error, retryAfterSeconds: null }, requests),
        );
        summary.failed++;
        continue;
      }
      if (mapped.skipped.length > 0) {
        const reasons = [...new Set(mapped.skipped.map((s) => s.reason))].slice(0, 5).join("; ");
        console.warn(`feed ${label}: ${mapped.skipped.length} match(es) skipped: ${reasons}`);
      }
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
        const r = typeof result === "string" ? (JSON.parse(result) as SyncSummary) : result;
        // Committed (atTime returned): tell the live pages of the match days it wrote, while the job goes on.
        const matchDays = Array.isArray(r.match_days) ? r.match_days.filter((md) => Number.isInteger(md)) : [];
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
        summary.synced++;
        summary.fixtures += (r.created ?? 0) + (r.updated ?? 0);
        summary.results += r.results ?? 0;
        summary.corrections += r.corrections ?? 0;
        summary.skipped += (r.skipped ?? 0) + mapped.skipped.length;
      } catch (error) {
        // Nothing of this league was written (one transaction); the next attempt comes after the backoff.
        const message = String((error as Error)?.message ?? error).slice(0, 300);
        console.error(`feed ${label}: could not save: ${message}`);
        await timed("db_ms", () =>
          recordFailure(
            sql,
            now,
            league,
            { kind: "refused", message: `The feed's data could not be saved: ${message}`, retryAfterSeconds: null },
            requests,
          ),
        );
        summary.failed++;
      }
    }
  } catch (error) {
    await told();
    throw error;
  }
  await told();
  summary.requests = client.requests;
  return summary;
}
