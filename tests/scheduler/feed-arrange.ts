/**
 * Arrange steps of the feed tests, run inside workerd: the local football-data.org v4 server's control API
 * (scripts/feed/football-data-server.ts), ticks of the feed's cron and the main cron, links made as the scheduler
 * would find them, and an admin's calls through the public SQL API.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import type postgres from "postgres";
import worker from "../../workers/scheduler/index";
import { FEED_CRON, MAIN_CRON } from "../../workers/scheduler/jobs";
import type { V4MatchData } from "../../scripts/feed/v4-matches";
import type { Sql } from "../support/factories";
import { FOOTBALL_DATA_PORT } from "./ports";

type WorkerEnv = Parameters<NonNullable<typeof worker.scheduled>>[1];

export const FEED_SERVER = `http://127.0.0.1:${FOOTBALL_DATA_PORT}`;

async function control<T = unknown>(path: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(`${FEED_SERVER}/__control/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`feed server control ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json<T>();
}

/** A clean server for a test, with a limit that no test reaches unless it sets one. */
export async function resetFeedServer(limitPerMinute = 10_000): Promise<void> {
  await control("reset", "POST");
  await control("settings", "POST", { limitPerMinute });
}

export const feedSettings = (settings: {
  limitPerMinute?: number;
  authFailureStatus?: 401 | 403;
  token?: string;
  down?: number | "drop" | null;
}) => control("settings", "POST", settings);

export const setSeason = (code: string, season: number, matches: V4MatchData[]) =>
  control(`competitions/${code}/${season}`, "PUT", { matches });

/** Changes one match the way the API would (lastUpdated moves on). */
export const patchMatch = (code: string, season: number, id: number, patch: Partial<V4MatchData>) =>
  control<V4MatchData>(`competitions/${code}/${season}/matches/${id}`, "PATCH", patch);

/** Scripts the next answers for this competition: a status with a body, raw text, a dropped connection. */
export const respondWith = (
  code: string,
  season: number,
  responses: { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; drop?: boolean }[],
) => control("respond", "POST", { code, season, responses });

export interface ReceivedRequest {
  path: string;
  code: string | null;
  season: string | null;
  token: string | null;
  status: number;
}

export const requestsFor = (code: string, season: number) => control<ReceivedRequest[]>(`requests?code=${code}&season=${season}`, "GET");
export const allRequests = () => control<ReceivedRequest[]>("requests", "GET");

async function tick(cron: string, at: Date, bindings: WorkerEnv = env as unknown as WorkerEnv) {
  const controller = createScheduledController({ scheduledTime: at.getTime(), cron });
  const ctx = createExecutionContext();
  await worker.scheduled!(controller, bindings, ctx);
  await waitOnExecutionContext(ctx);
}

/** One tick of the feed's cron (every minute in production) at `at`. */
export const feedTick = (at: Date) => tick(FEED_CRON, at);
/** A feed tick with some bindings replaced (a LIVE binding whose objects cannot be reached, say). */
export const feedTickWith = (at: Date, replaced: Partial<WorkerEnv>) =>
  tick(FEED_CRON, at, { ...(env as unknown as WorkerEnv), ...replaced });
/** One tick of the main cron (every 15 minutes): match days, Scout sweep, reminders, cleanup. */
export const mainTick = (at: Date) => tick(MAIN_CRON, at);

/** A league's season linked to the feed as the admin panel's Link leaves it (a sync asked for). */
export async function linkLeague(sql: Sql, league: string, season: string, at: Date): Promise<void> {
  await sql`
    insert into public.feed_leagues (league, season, code, season_year, linked, linked_at, sync_requested_at)
    values (${league}, ${season}, private.feed_competition_code(${league}), private.season_start_year(${season}), true, ${at}, ${at})
    on conflict (league, season) do update set linked = true, sync_requested_at = excluded.sync_requested_at`;
}

export interface FeedLeagueRow {
  last_synced_at: Date | null;
  last_error: string | null;
  failures: number;
  next_attempt_at: Date | null;
  paused_until: Date | null;
  last_fixtures_changed: number;
  last_results_changed: number;
  requests: number;
}

export async function feedLeague(sql: Sql, league: string, season: string): Promise<FeedLeagueRow> {
  const [row] = await sql<FeedLeagueRow[]>`
    select last_synced_at, last_error, failures, next_attempt_at, paused_until, last_fixtures_changed,
           last_results_changed, requests
      from public.feed_leagues where league = ${league} and season = ${season}`;
  return row;
}

export interface FixtureRow {
  id: string;
  match_day: number;
  home_team: string;
  away_team: string;
  kickoff_time: Date;
  status: string;
  home_score: number | null;
  away_score: number | null;
  result_source: string | null;
  feed_match_id: string | null;
  live_status: string | null;
  live_home_score: number | null;
  live_away_score: number | null;
  feed_status: string | null;
  feed_home_score: number | null;
  feed_away_score: number | null;
  feed_flag: string | null;
  feed_match_day: number | null;
  feed_kickoff_time: Date | null;
  updated_at: Date;
}

export const fixtures = (sql: Sql, league: string, season: string) =>
  sql<FixtureRow[]>`
    select id::text, match_day, home_team, away_team, kickoff_time, status, home_score, away_score, result_source,
           feed_match_id::text, live_status, live_home_score, live_away_score, feed_status, feed_home_score,
           feed_away_score, feed_flag, feed_match_day, feed_kickoff_time, updated_at
      from public.fixtures where league = ${league} and season = ${season}
     order by match_day, kickoff_time, id`;

export async function fixtureByFeedId(sql: Sql, feedId: number): Promise<FixtureRow> {
  const [row] = await sql<FixtureRow[]>`
    select id::text, match_day, home_team, away_team, kickoff_time, status, home_score, away_score, result_source,
           feed_match_id::text, live_status, live_home_score, live_away_score, feed_status, feed_home_score,
           feed_away_score, feed_flag, feed_match_day, feed_kickoff_time, updated_at
      from public.fixtures where feed_match_id = ${feedId}`;
  return row;
}

/** Runs fn as an admin through the public SQL API (the web Worker's path), on the app clock `now`. */
export function asAdmin<T>(sql: Sql, adminId: string, now: Date, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: adminId, role: "authenticated" })}, true),
                    set_config('app.now', ${now.toISOString()}, true),
                    set_config('role', 'authenticated', true)`;
    return fn(tx);
  }) as Promise<T>;
}
