import type { Db } from "~/db/types";
import { formatKickoff } from "~/lib/date-format";

/*
 * The admin panel's results view (/admin/fixtures): a match day's fixtures with their results, live scores and last
 * result change, read as the admin (row-level security: the history is admin-readable). The writes it offers are in
 * fixtures.server.ts.
 */

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
