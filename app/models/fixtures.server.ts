import postgres from "postgres";
import type { Db } from "~/db/types";
import type { CsvRowError, FixtureCsvRow } from "~/lib/csv";
import { ACCESS_DENIED } from "~/admin.server";
import { formatKickoff } from "~/lib/date-format";

/*
 * Admin fixtures: the results view, result entry, postponement and the CSV upsert. Every call runs as the
 * admin (db.asUser) so row-level security applies; the rules (score bounds, derived result, reprocessing of
 * what depends on a result, per-row upsert) live in the SQL functions save_fixture_result,
 * set_fixture_postponed and upsert_fixtures.
 */

export interface AdminFixture {
  id: string;
  homeTeam: string;
  awayTeam: string;
  kickoffTime: string;
  kickoffText: string;
  status: "pending" | "complete" | "postponed";
  homeScore: number | null;
  awayScore: number | null;
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
  status: AdminFixture["status"];
  home_score: number | null;
  away_score: number | null;
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
      sql<FixtureRow[]>`
        select f.id::text as id, f.home_team, f.away_team, f.kickoff_time, f.status, f.home_score, f.away_score
          from public.fixtures f
         where f.league = ${league} and f.season = ${season} and f.match_day = ${chosen}
           ${team ? sql`and (f.home_team ilike ${like} or f.away_team ilike ${like})` : sql``}
         order by f.kickoff_time, f.id`,
      sql<{ total: number }[]>`
        select greatest(
                 coalesce((select max(c.total_match_days) from public.competitions c
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
        kickoffTime: new Date(r.kickoff_time).toISOString(),
        kickoffText: formatKickoff(r.kickoff_time, opts.timeZone, { full: true }),
        status: r.status,
        homeScore: r.home_score,
        awayScore: r.away_score,
      })),
    };
  });
}

/** A result to save, as the Results form's schema gives it (app/routes/_app.admin.fixtures.tsx). */
export interface SaveResultInput {
  fixtureId: string;
  homeScore: number;
  awayScore: number;
}

/** A postponement to set or undo, as the Results form's schema gives it. */
export interface PostponeInput {
  fixtureId: string;
  postponed: boolean;
}

export type ActionResult = { ok: true; message: string } | { ok: false; status: number; message: string };

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
        sql<
          { code: string }[]
        >`select public.save_fixture_result(${input.fixtureId}::bigint, ${input.homeScore}::int, ${input.awayScore}::int) as code`,
    );
    const code = rows[0]?.code;
    if (code === "saved") return { ok: true, message: "Result saved." };
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
      (sql) => sql<{ code: string }[]>`select public.set_fixture_postponed(${input.fixtureId}::bigint, ${input.postponed}) as code`,
    );
    const code = rows[0]?.code;
    if (code === "not_found") return { ok: false, status: 404, message: "Fixture not found." };
    return { ok: true, message: input.postponed ? "Fixture postponed." : "Postponement undone." };
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
