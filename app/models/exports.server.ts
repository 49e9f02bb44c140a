import type { KnockoutLeaderboardPageRow, RevealedPicksRow, SeasonLeaderboardPageRow } from "~/db/row-types.generated";
import type { Db, PlayerSql } from "~/db/types";
import { csvCell } from "~/lib/csv";
import { pickOutcomeText } from "~/lib/outcome-messages";

/*
 * A competition's CSV exports for its creator and admins (rules file, "History and seasons"; decision 030): the
 * standings, and the picks of every match day whose deadline has passed. Both are read as the player, under
 * row-level security, and only through SQL that decides who may (public.can_export_competition, gating every read)
 * and what is revealed (public.revealed_picks: never a pick whose deadline has not passed, also for an admin).
 * Names are those the leaderboards show (player_names).
 *
 * Streamed: the first page travels with the session check (one round trip); each further page is read when the
 * client has taken the one before (a ReadableStream's pull), so memory stays flat whatever the size. The picks are
 * read through a cursor in the request's transaction (sorted once by the database), the standings a leaderboard
 * page at a time. The transaction stays open until the stream ends (Db.keepOpenUntil).
 */

/** Rows per page read from the database. */
export const EXPORT_PAGE_ROWS = 2000;
/** The leaderboard page functions give at most this many rows a call. */
const STANDINGS_PAGE_ROWS = 1000;
const CURSOR = "history_export";

export type ExportKind = "standings" | "picks";
export type ExportAnswer = { status: 403 | 404 } | { status: 200; filename: string; body: ReadableStream<Uint8Array> };
type Cells = (string | number | null)[];

const SEASON_HEADER = ["Rank", "Player", "Won", "Drawn", "Lost", "Goals For", "Goals Against", "Goal Difference", "Points"];
const KNOCKOUT_HEADER = ["Position", "Player", "Status", "Knocked Out On"];
const PICKS_HEADER = ["Match Day", "Player", "Team", "Match", "Score", "Result"];

/** CSV lines (RFC 4180: CRLF), every cell through csvCell (quoting; a cell that could run as a formula is defused). */
export const csvLines = (rows: Cells[]) => rows.map((r) => r.map(csvCell).join(",") + "\r\n").join("");

type SeasonRow = Pick<
  SeasonLeaderboardPageRow,
  "rank" | "username" | "wins" | "draws" | "losses" | "goals_for" | "goals_against" | "goal_difference" | "points"
>;
type KnockoutRow = Pick<KnockoutLeaderboardPageRow, "position" | "user_username" | "status" | "knocked_out_on">;
type PickRow = Pick<
  RevealedPicksRow,
  "match_day" | "username" | "team" | "home_team" | "away_team" | "home_score" | "away_score" | "outcome"
>;

const seasonCells = (r: SeasonRow): Cells => [
  r.rank,
  r.username,
  r.wins,
  r.draws,
  r.losses,
  r.goals_for,
  r.goals_against,
  r.goal_difference,
  r.points,
];
const knockoutCells = (r: KnockoutRow): Cells => [
  r.position,
  r.user_username,
  r.status,
  r.knocked_out_on === null ? "" : `Match Day ${r.knocked_out_on}`,
];
const pickCells = (r: PickRow): Cells => [
  r.match_day,
  r.username,
  r.team,
  `${r.home_team} v ${r.away_team}`,
  r.home_score !== null && r.away_score !== null ? `${r.home_score}-${r.away_score}` : "",
  pickOutcomeText(r.outcome ?? ""),
];

function standingsPage(sql: PlayerSql, competitionId: string, offset: number) {
  // Only the query of the competition's type returns rows; both are gated by the export right.
  return Promise.all([
    sql<SeasonRow[]>`
      select p.rank, p.username, p.wins, p.draws, p.losses, p.goals_for, p.goals_against, p.goal_difference, p.points
        from public.competitions c
       cross join lateral public.season_leaderboard_page(c.id, ${offset}, ${STANDINGS_PAGE_ROWS}) p
       where c.id = ${competitionId} and c.type = 'season' and (select public.can_export_competition(${competitionId}))
       order by p.position`,
    sql<KnockoutRow[]>`
      select p.position, p.user_username, p.status, p.knocked_out_on
        from public.competitions c
       cross join lateral public.knockout_leaderboard_page(c.id, ${offset}, ${STANDINGS_PAGE_ROWS}) p
       where c.id = ${competitionId} and c.type = 'knockout' and (select public.can_export_competition(${competitionId}))
       order by p.position`,
  ]).then(([season, knockout]) => ({ season: season.map(seasonCells), knockout: knockout.map(knockoutCells) }));
}

// FETCH takes its count as a plain number, not a literal: the statement is fixed text (no value from the request).
const fetchPicks = (sql: PlayerSql) => sql.unsafe<PickRow[]>(`fetch forward ${EXPORT_PAGE_ROWS} from ${CURSOR}`);

/** A file name from the competition's name: letters, digits and dashes only (never a quote or a path). */
export function exportFilename(name: string, kind: ExportKind): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, 60);
  return `${slug || "competition"}-${kind}.csv`;
}

/**
 * The export as a stream, or 404 (no such knockout or season competition) / 403 (neither its creator nor an admin).
 * The competition, the right and the first page are read in the request's first round trip.
 */
export async function exportCompetitionCsv(db: Db, userId: string, competitionId: string, kind: ExportKind): Promise<ExportAnswer> {
  const first = await db.asUser(userId, async (sql) => {
    const competition = sql<{ name: string; type: string; allowed: boolean }[]>`
      select c.name, c.type, public.can_export_competition(c.id) as allowed
        from public.competitions c where c.id = ${competitionId} and c.type in ('knockout', 'season')`;
    if (kind === "standings") {
      const [rows, page] = await Promise.all([competition, standingsPage(sql, competitionId, 0)]);
      return { competition: rows[0], cells: rows[0]?.type === "season" ? page.season : page.knockout };
    }
    const declared = sql`
      declare ${sql(CURSOR)} no scroll cursor for
      select p.match_day, p.username, p.team, p.home_team, p.away_team, p.home_score, p.away_score, p.outcome
        from public.revealed_picks(${competitionId}) p
       where (select public.can_export_competition(${competitionId}))
       order by p.match_day, p.sort_name, p.user_id`;
    const [rows, , page] = await Promise.all([competition, declared, fetchPicks(sql)]);
    return { competition: rows[0], cells: page.map(pickCells) };
  });
  if (!first.competition) return { status: 404 };
  if (!first.competition.allowed) return { status: 403 };

  const type = first.competition.type;
  const header = kind === "picks" ? PICKS_HEADER : type === "season" ? SEASON_HEADER : KNOCKOUT_HEADER;
  let offset = first.cells.length;
  const next =
    kind === "picks"
      ? () => db.asUser(userId, async (sql) => (await fetchPicks(sql)).map(pickCells))
      : () =>
          db.asUser(userId, async (sql) =>
            standingsPage(sql, competitionId, offset).then((p) => (type === "season" ? p.season : p.knockout)),
          );
  const pageRows = kind === "picks" ? EXPORT_PAGE_ROWS : STANDINGS_PAGE_ROWS;
  const body = csvStream(
    db,
    csvLines([header]) + csvLines(first.cells),
    first.cells.length < pageRows
      ? null
      : async () => {
          const cells = await next();
          offset += cells.length;
          return { text: csvLines(cells), more: cells.length === pageRows };
        },
  );
  return { status: 200, filename: exportFilename(first.competition.name, kind), body };
}

/**
 * The response body: `start` first, then whatever `more` reads, one page each time the client has taken the last,
 * until it says there is no more. The request's transaction stays open until the stream is done (or cancelled).
 */
function csvStream(db: Db, start: string, more: (() => Promise<{ text: string; more: boolean }>) | null): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let done!: () => void;
  db.keepOpenUntil(new Promise<void>((resolve) => (done = resolve)));
  let read = more;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(start));
        if (!read) {
          controller.close();
          done();
        }
      },
      async pull(controller) {
        if (!read) return;
        try {
          const page = await read();
          if (page.text) controller.enqueue(encoder.encode(page.text));
          if (!page.more) {
            read = null;
            controller.close();
            done();
          }
        } catch (error) {
          read = null;
          controller.error(error);
          done();
        }
      },
      cancel() {
        read = null;
        done();
      },
    },
    { highWaterMark: 1 },
  );
}
