import postgres from "postgres";
import type { Db } from "~/db/types";
import type { CsvRowError, FixtureCsvRow } from "~/lib/csv";
import { ACCESS_DENIED } from "~/admin.server";
import { formatKickoff } from "~/lib/date-format";

/*
 * Admin fixtures: the results view, result entry, postponement and the CSV upsert. Every call runs as the
 * admin (db.asUser) so row-level security applies; the rules (score bounds, derived result, reprocessing of
 * what depends on a result, per-row upsert, the history of every change and the reason a correction needs)
 * live in the SQL functions save_fixture_result, set_fixture_postponed and upsert_fixtures, which share
 * private.apply_fixture_result with the data feed (decision 020).
 */

/** The database's words (private.apply_fixture_result); the form shows them as they come. */
export const REASON_REQUIRED = "A reason is required to correct a result.";
export const REASON_MAX = 500;

/** The last change of a fixture's result, as the admin panel shows it under the fixture. */
export interface ResultChange {
  source: "admin" | "csv" | "feed";
  by: string | null;
  at: string;
  atText: string;
  from: string;
  to: string;
  reason: string | null;
  count: number;
}

export interface AdminFixture {
  id: string;
  homeTeam: string;
  awayTeam: string;
  kickoffTime: string;
  kickoffText: string;
  status: "pending" | "complete" | "postponed";
  homeScore: number | null;
  awayScore: number | null;
  /** Where the result came from (admin, csv, feed), null while there is none. */
  resultSource: "admin" | "csv" | "feed" | null;
  /** A match in play (from the data feed): its running score, never a result. */
  live: { status: "IN_PLAY" | "PAUSED"; home: number; away: number } | null;
  lastChange: ResultChange | null;
}

export interface ResultsView {
  league: string;
  season: string;
  matchDay: number;
  totalMatchDays: number;
  team: string;
  fixtures: AdminFixture[];
  teams: string[];
}

interface FixtureRow {
  id: string;
  home_team: string;
  away_team: string;
  kickoff_time: Date | string;
  kickoff_confirmed: boolean;
  status: AdminFixture["status"];
  home_score: number | null;
  away_score: number | null;
  result_source: AdminFixture["resultSource"];
  live_status: "IN_PLAY" | "PAUSED" | null;
  live_home_score: number | null;
  live_away_score: number | null;
  change_source: ResultChange["source"] | null;
  change_by: string | null;
  change_at: Date | string | null;
  change_old_status: string | null;
  change_old_home: number | null;
  change_old_away: number | null;
  change_new_status: string | null;
  change_new_home: number | null;
  change_new_away: number | null;
  change_reason: string | null;
  change_count: number;
}

/** "2-1", "postponed" or "no result" (the words the notices use). */
function resultText(status: string | null, home: number | null, away: number | null): string {
  if (status === "complete" && home !== null && away !== null) return `${home}-${away}`;
  return status === "postponed" ? "postponed" : "no result";
}

/**
 * The results section: the match day's fixtures (kickoff order, optionally filtered by team), the default
 * match day (the first one of the league/season with a fixture still pending (postponed ones count as done, as in the match-day advance), else 1), the number of
 * match days and the teams for the filter. One transaction, statements pipelined.
 */
export async function loadResults(
  db: Db,
  userId: string,
  opts: { league: string; season: string; matchDay: number | null; team: string; timeZone: string | null },
): Promise<ResultsView> {
  const { league, season, team } = opts;
  return db.asUser(userId, async (sql) => {
    const chosen = opts.matchDay
      ? sql`${opts.matchDay}::int`
      : sql`coalesce((select min(f.match_day) from public.fixtures f
                      where f.league = ${league} and f.season = ${season} and f.status = 'pending'), 1)`;
    const like = `%${team.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const [mdRows, rows, totalRows, teamRows] = await Promise.all([
      sql<{ match_day: number }[]>`select ${chosen} as match_day`,
      // with each fixture its last result change (the history is admin-readable only) and how many there were
      sql<FixtureRow[]>`
        select f.id::text as id, f.home_team, f.away_team, f.kickoff_time, f.kickoff_confirmed, f.status, f.home_score, f.away_score,
               f.result_source, f.live_status, f.live_home_score, f.live_away_score,
               c.source as change_source, p.username as change_by, c.changed_at as change_at,
               c.old_status as change_old_status, c.old_home_score as change_old_home, c.old_away_score as change_old_away,
               c.new_status as change_new_status, c.new_home_score as change_new_home, c.new_away_score as change_new_away,
               c.reason as change_reason, coalesce(c.n, 0)::int as change_count
          from public.fixtures f
          left join lateral (
            select r.*, count(*) over () as n from public.fixture_result_changes r
             where r.fixture_id = f.id order by r.id desc limit 1
          ) c on true
          left join public.player_names p on p.id = c.changed_by
         where f.league = ${league} and f.season = ${season} and f.match_day = ${chosen}
           ${team ? sql`and (f.home_team ilike ${like} or f.away_team ilike ${like})` : sql``}
         order by f.kickoff_time, f.id`,
      sql<{ total: number }[]>`
        select greatest(
                 coalesce((select l.match_days from public.feed_leagues l where l.league = ${league} and l.season = ${season}),
                          (select max(c.total_match_days) from public.competitions c
                            where c.league = ${league} and c.season = ${season}), public.default_total_match_days()),
                 coalesce((select max(f.match_day) from public.fixtures f
                            where f.league = ${league} and f.season = ${season}), 1))::int as total`,
      sql<{ team: string }[]>`
        select distinct t.team from public.fixtures f
         cross join lateral (values (f.home_team), (f.away_team)) as t(team)
         where f.league = ${league} and f.season = ${season}
         order by t.team`,
    ]);
    return {
      league,
      season,
      matchDay: mdRows[0]?.match_day ?? 1,
      totalMatchDays: totalRows[0].total,
      team,
      teams: teamRows.map((r) => r.team),
      fixtures: rows.map((r) => ({
        id: r.id,
        homeTeam: r.home_team,
        awayTeam: r.away_team,
        // a date without a time (the feed's SCHEDULED, decision 027) is a date, not a midnight
        kickoffTime: new Date(r.kickoff_time).toISOString().slice(0, r.kickoff_confirmed ? undefined : 10),
        kickoffText: formatKickoff(r.kickoff_time, opts.timeZone, { full: true, confirmed: r.kickoff_confirmed }),
        status: r.status,
        homeScore: r.home_score,
        awayScore: r.away_score,
        resultSource: r.result_source,
        live:
          r.live_status && r.live_home_score !== null && r.live_away_score !== null
            ? { status: r.live_status, home: r.live_home_score, away: r.live_away_score }
            : null,
        lastChange:
          r.change_source && r.change_at
            ? {
                source: r.change_source,
                by: r.change_by,
                at: new Date(r.change_at).toISOString(),
                atText: formatKickoff(r.change_at, opts.timeZone, { full: true }),
                from: resultText(r.change_old_status, r.change_old_home, r.change_old_away),
                to: resultText(r.change_new_status, r.change_new_home, r.change_new_away),
                reason: r.change_reason,
                count: r.change_count,
              }
            : null,
      })),
    };
  });
}

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
