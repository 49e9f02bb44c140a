import postgres from "postgres";
import type { Db } from "~/db/types";
import type { CsvRowError, FixtureCsvRow } from "~/lib/csv";
import { ACCESS_DENIED } from "~/admin.server";

/*
 * Admin fixtures: result entry, postponement, the live score and the CSV upsert (the results view they act on:
 * admin-results.server.ts). Every call runs as the
 * admin (db.asUser) so row-level security applies; the rules (score bounds, derived result, reprocessing of
 * what depends on a result, per-row upsert, the history of every change and the reason a correction needs)
 * live in the SQL functions save_fixture_result, set_fixture_postponed and upsert_fixtures, which share
 * private.apply_fixture_result with the data feed (decision 020).
 */

/** The database's words (private.apply_fixture_result); the form shows them as they come. */
export const REASON_REQUIRED = "A reason is required to correct a result.";
export const REASON_MAX = 500;

/** A result to save, as the Results form's schema gives it (app/routes/_app.admin.fixtures.tsx). */
export interface SaveResultInput {
  fixtureId: string;
  homeScore: number;
  awayScore: number;
  /** Optional: the database decides when it is required (correcting a complete result). */
  reason: string | null;
}

/** A postponement to set or undo, as the Results form's schema gives it. */
export interface PostponeInput {
  fixtureId: string;
  postponed: boolean;
  /** Optional: the database decides when it is required (correcting a complete result). */
  reason: string | null;
}

/** A match day (league, season, match day): the key of its live page updates (decision 022). */
export interface MatchDayKey {
  league: string;
  season: string;
  matchDay: number;
}

export type ActionResult = { ok: true; message: string; changed?: MatchDayKey } | { ok: false; status: number; message: string };

/** The fixture's match day, read in the write's own statement (no extra round trip). */
type WithKey = { league: string | null; season: string | null; match_day: number | null };
function keyOf(row: WithKey | undefined): MatchDayKey | undefined {
  return row?.league && row.season && row.match_day !== null
    ? { league: row.league, season: row.season, matchDay: row.match_day }
    : undefined;
}

/** A database error turned into the message an admin sees (never a stack trace). */
export function failure(error: unknown, fallback: string): ActionResult {
  if (error instanceof Response) throw error;
  if (error instanceof postgres.PostgresError) {
    if (error.code === "42501") return { ok: false, status: 403, message: ACCESS_DENIED };
    if (error.code === "P0001" || error.code === "P0002") return { ok: false, status: 400, message: error.message };
    if (error.code === "23505" || error.code === "23514") return { ok: false, status: 400, message: fallback };
  }
  console.error(`${fallback}:`, (error as Error)?.message ?? error);
  return { ok: false, status: 500, message: fallback };
}

export async function saveResult(db: Db, userId: string, input: SaveResultInput): Promise<ActionResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<({ code: string } & WithKey)[]>`
          select public.save_fixture_result(${input.fixtureId}::bigint, ${input.homeScore}::int, ${input.awayScore}::int, ${input.reason}::text) as code,
                 f.league, f.season, f.match_day
            from (select 1) x left join public.fixtures f on f.id = ${input.fixtureId}::bigint`,
    );
    const code = rows[0]?.code;
    if (code === "saved") return { ok: true, message: "Result saved.", changed: keyOf(rows[0]) };
    if (code === "not_found") return { ok: false, status: 404, message: "Fixture not found." };
    return { ok: false, status: 400, message: "Failed to save result." };
  } catch (error) {
    return failure(error, "Failed to save result.");
  }
}

export async function setPostponed(db: Db, userId: string, input: PostponeInput): Promise<ActionResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<({ code: string } & WithKey)[]>`
          select public.set_fixture_postponed(${input.fixtureId}::bigint, ${input.postponed}, ${input.reason}::text) as code,
                 f.league, f.season, f.match_day
            from (select 1) x left join public.fixtures f on f.id = ${input.fixtureId}::bigint`,
    );
    const code = rows[0]?.code;
    if (code === "not_found") return { ok: false, status: 404, message: "Fixture not found." };
    return { ok: true, message: input.postponed ? "Fixture postponed." : "Postponement undone.", changed: keyOf(rows[0]) };
  } catch (error) {
    return failure(error, "Failed to update fixture.");
  }
}

/** A running score entered by an admin (the Results page's "Live score"), or cleared: never a result. */
export interface LiveScoreInput {
  fixtureId: string;
  homeScore: number | null;
  awayScore: number | null;
  /** IN_PLAY, PAUSED (half-time) or null to clear the live score. */
  liveStatus: "IN_PLAY" | "PAUSED" | null;
}

export async function setLiveScore(db: Db, userId: string, input: LiveScoreInput): Promise<ActionResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<({ code: string } & WithKey)[]>`
          select public.set_fixture_live_score(${input.fixtureId}::bigint, ${input.homeScore}::int, ${input.awayScore}::int, ${input.liveStatus}::text) as code,
                 f.league, f.season, f.match_day
            from (select 1) x left join public.fixtures f on f.id = ${input.fixtureId}::bigint`,
    );
    const code = rows[0]?.code;
    if (code === "not_found") return { ok: false, status: 404, message: "Fixture not found." };
    return { ok: true, message: input.liveStatus ? "Live score saved." : "Live score cleared.", changed: keyOf(rows[0]) };
  } catch (error) {
    return failure(error, "Failed to update fixture.");
  }
}

export interface UpsertOutcome {
  succeeded: number;
  failed: CsvRowError[];
}

/** Saves the valid CSV rows (each on its own inside upsert_fixtures) and reports the ones the database refused. */
export async function upsertFixtureRows(db: Db, userId: string, rows: FixtureCsvRow[]): Promise<UpsertOutcome> {
  if (rows.length === 0) return { succeeded: 0, failed: [] };
  const result = await db.asUser(
    userId,
    (sql) =>
      sql<{ result: { succeeded?: number; failed?: { line: number; reason: string }[] } | string }[]>`
      select public.upsert_fixtures(${JSON.stringify(rows)}::text::jsonb) as result`,
  );
  let value = result[0]?.result ?? {};
  if (typeof value === "string") value = JSON.parse(value) as { succeeded?: number; failed?: CsvRowError[] };
  return {
    succeeded: Number(value.succeeded ?? 0),
    failed: (value.failed ?? []).map((f) => ({ line: Number(f.line), reason: String(f.reason) })),
  };
}
