import type { PlayerSql } from "~/db/types";
import { dateFormat, dateOfUnconfirmedKickoff, TIME_TBC, zoneAbbreviation } from "~/lib/date-format";

/*
 * Fixture rows as the player pages read them (team selection, competition detail, Scout): the columns, the
 * current match day's query, their normal form and their grouping by date in the player's zone.
 */

export interface FixtureRow {
  id: string;
  kickoffTime: string | null;
  /** False while the feed has given the date only (decision 027): kickoffTime is that date at 00:00 UTC. */
  kickoffConfirmed: boolean;
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
  const DATE: Intl.DateTimeFormatOptions = { weekday: "long", day: "numeric", month: "long", year: "numeric" };
  const dateFmt = dateFormat("en-GB", { timeZone, ...DATE });
  const timeFmt = dateFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit" });
  const groups: FixtureGroup[] = [];
  for (const row of rows) {
    const at = row.kickoffTime;
    // A date without a time (decision 027): that date (a UTC one), "Time TBC", never the placeholder midnight.
    const date = !at ? "Unknown Date" : row.kickoffConfirmed ? dateFmt.format(new Date(at)) : dateOfUnconfirmedKickoff(at, DATE);
    // "15:00 GMT": the time with the player's zone named.
    const time = !at ? "TBA" : row.kickoffConfirmed ? `${timeFmt.format(new Date(at))} ${zoneAbbreviation(at, timeZone)}` : TIME_TBC;
    let group = groups.find((g) => g.date === date);
    if (!group) groups.push((group = { date, fixtures: [] }));
    group.fixtures.push({ ...row, time });
  }
  return groups;
}

/** Columns of a fixture row (postgres.js returns timestamptz as Date; normalised to ISO strings below). */
export const FIXTURE_COLUMNS = `f.id::text as id, f.kickoff_time as "kickoffTime", f.kickoff_confirmed as "kickoffConfirmed",
  f.home_team as "homeTeam", f.away_team as "awayTeam",
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
    kickoffConfirmed: r.kickoffConfirmed !== false,
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
