import type { Db, PlayerSql } from "~/db/types";
import { dateFormat } from "~/lib/date-format";

export interface FixtureRow {
  id: string;
  kickoffTime: string | null;
  homeTeam: string;
  awayTeam: string;
  homeScore: number | null;
  awayScore: number | null;
  status: string;
}

/** Fixtures grouped by kickoff date in the player's zone, with date and time labels formatted on the server. */
interface FixtureGroup {
  date: string;
  fixtures: (FixtureRow & { time: string })[];
}

export function groupFixtures(rows: FixtureRow[], timeZone: string): FixtureGroup[] {
  const dateFmt = dateFormat("en-GB", { timeZone, weekday: "long", day: "numeric", month: "long", year: "numeric" });
  const timeFmt = dateFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit" });
  const groups: FixtureGroup[] = [];
  for (const row of rows) {
    const date = row.kickoffTime ? dateFmt.format(new Date(row.kickoffTime)) : "Unknown Date";
    const time = row.kickoffTime ? timeFmt.format(new Date(row.kickoffTime)) : "TBA";
    let group = groups.find((g) => g.date === date);
    if (!group) groups.push((group = { date, fixtures: [] }));
    group.fixtures.push({ ...row, time });
  }
  return groups;
}

/** Columns of a fixture row (postgres.js returns timestamptz as Date; normalised to ISO strings below). */
export const FIXTURE_COLUMNS = `f.id::text as id, f.kickoff_time as "kickoffTime", f.home_team as "homeTeam", f.away_team as "awayTeam",
  f.home_score as "homeScore", f.away_score as "awayScore", f.status`;

export function toIso(value: unknown): string | null {
  if (value == null) return null;
  const d = value instanceof Date ? value : typeof value === "string" || typeof value === "number" ? new Date(value) : null;
  return !d || Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function normaliseFixtures(rows: readonly Record<string, unknown>[]): FixtureRow[] {
  return rows.map((r) => ({
    id: String(r.id),
    kickoffTime: toIso(r.kickoffTime),
    homeTeam: String(r.homeTeam),
    awayTeam: String(r.awayTeam),
    homeScore: (r.homeScore as number | null) ?? null,
    awayScore: (r.awayScore as number | null) ?? null,
    status: String(r.status),
  }));
}

/**
 * The fixtures of the competition's current match day, in kickoff order: the team selection page and the
 * competition detail page list the same ones. Not awaited here: callers issue it together with their other
 * queries so the transaction pipelines them; turn the rows into FixtureRows with normaliseFixtures.
 */
export function currentFixturesQuery(sql: PlayerSql, competitionId: string) {
  return sql.unsafe(
    `select ${FIXTURE_COLUMNS}
       from public.fixtures f
       join public.competitions c
         on c.league = f.league and c.season = f.season and f.match_day = c.current_match_day
      where c.id = $1
      order by f.kickoff_time, f.id`,
    [competitionId],
  );
}

/** The player's own pick for the competition's current match day (no row when none). Not awaited here either. */
export function currentPickQuery(sql: PlayerSql, competitionId: string, userId: string) {
  return sql`
    select ts.selected_team as team
      from public.team_selections ts
      join public.competitions c on c.id = ts.competition_id and ts.match_day = c.current_match_day
     where ts.competition_id = ${competitionId} and ts.user_id = ${userId}`;
}

interface TeamSelectionPage {
  competition: { id: string; name: string; type: string; status: string; currentMatchDay: number };
  deadline: string | null;
  /** Picks may be made for the current match day now (public.selection_open: it has fixtures, deadline ahead). */
  selectionOpen: boolean;
  /** selectionStatus: active = this member may pick now (user_competition_stats_view.selection_status). */
  membership: { status: string; knockedOutOn: number | null; selectionStatus: string } | null;
  currentSelection: string | null;
  eligibleTeams: string[];
  fixtures: FixtureRow[];
}

/**
 * Everything the team selection page shows, in one transaction as the player (RLS applies): the
 * independent queries are issued together so they travel in one pipelined batch.
 */
export async function getTeamSelectionPage(db: Db, userId: string, competitionId: string): Promise<TeamSelectionPage | null> {
  return db.asUser(userId, async (sql) => {
    const [competitionRows, fixtureRows, membershipRows, pickRows, eligibleRows] = await Promise.all([
      sql`
        select c.id, c.name, c.type, c.status, c.current_match_day as "currentMatchDay",
               public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline,
               public.selection_open(c.league, c.season, c.current_match_day) as "selectionOpen"
          from public.competitions c
         where c.id = ${competitionId} and c.type <> 'scout'`,
      currentFixturesQuery(sql, competitionId),
      sql`
        select v.membership_status as status, v.knocked_out_on as "knockedOutOn", v.selection_status as "selectionStatus"
          from public.user_competition_stats_view v
         where v.competition_id = ${competitionId} and v.user_id = ${userId}`,
      currentPickQuery(sql, competitionId, userId),
      sql`select e.team from public.get_eligible_teams(${competitionId}, ${userId}) e`,
    ]);
    const c = competitionRows[0];
    if (!c) return null;
    const deadline = toIso(c.deadline);
    return {
      competition: {
        id: String(c.id),
        name: String(c.name),
        type: String(c.type),
        status: String(c.status),
        currentMatchDay: Number(c.currentMatchDay),
      },
      deadline,
      selectionOpen: Boolean(c.selectionOpen),
      membership: membershipRows[0]
        ? {
            status: String(membershipRows[0].status),
            knockedOutOn: (membershipRows[0].knockedOutOn as number | null) ?? null,
            selectionStatus: String(membershipRows[0].selectionStatus),
          }
        : null,
      currentSelection: (pickRows[0]?.team as string | undefined) ?? null,
      eligibleTeams: eligibleRows.map((r) => String(r.team)),
      fixtures: normaliseFixtures(fixtureRows),
    };
  });
}

type SaveSelectionCode = "saved" | "not_found" | "not_registered" | "eliminated" | "selection_closed" | "not_eligible";

/** Saves (inserts or replaces) the player's pick for the current match day; the database applies every rule. */
export async function saveTeamSelection(db: Db, userId: string, competitionId: string, team: string): Promise<SaveSelectionCode> {
  const rows = await db.asUser(userId, (sql) => sql`select public.save_team_selection(${competitionId}, ${team}) as code`);
  return String(rows[0]?.code ?? "not_found") as SaveSelectionCode;
}

/** The inline reason shown under the error toast when a pick is refused. */
export function selectionRefusalReason(code: string | null | undefined): string | null {
  switch (code) {
    case "selection_closed":
      return "Selection is closed for this match day.";
    case "not_eligible":
      return "That team is not available to you for this match day.";
    case "eliminated":
      return "You have been eliminated from this competition.";
    case "not_registered":
      return "You are not registered for this competition.";
    case "not_found":
      return "Competition not found";
    case "error":
      return "Something went wrong while saving. Please try again.";
    default:
      return null;
  }
}
