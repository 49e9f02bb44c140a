import type { IfItEndedNowRow, MatchDayPickSharesRow } from "~/db/row-types.generated";
import type { PlayerSql } from "~/db/types";
import type { LiveFixture, LiveLine, PickShare } from "~/lib/live";

/*
 * The live match day's reads (decision 022). Each is one statement, not awaited here: the pages issue them with
 * their other queries so they ride in the page's one round trip (decision 012). The rules are SQL's:
 * public.if_it_ended_now (the provisional knockout / season line, roll-over included) and
 * public.match_day_pick_shares (the hidden-picks rule).
 */

/** The caller's "if it ended now" lines: every competition of theirs being played, or just one. */
export function liveLinesQuery(sql: PlayerSql, competitionId: string | null) {
  return sql<IfItEndedNowRow[]>`
    select l.* from public.if_it_ended_now(${competitionId}::uuid) l order by l.competition_id`;
}

/** The competition's current match day fixtures that are in play (the feed's or an admin's live score). */
export function liveFixturesQuery(sql: PlayerSql, competitionId: string) {
  return sql<{ id: string; home_team: string; away_team: string; live_status: string; live_home_score: number; live_away_score: number }[]>`
    select f.id::text as id, f.home_team, f.away_team, f.live_status, f.live_home_score, f.live_away_score
      from public.competitions c
      join public.fixtures f
        on f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
     where c.id = ${competitionId} and f.status = 'pending' and f.live_status is not null
     order by f.kickoff_time, f.id`;
}

/** The current match day's picks per team, after the deadline only (none before). */
export function pickSharesQuery(sql: PlayerSql, competitionId: string) {
  return sql<MatchDayPickSharesRow[]>`select s.* from public.match_day_pick_shares(${competitionId}) s`;
}

export function toLiveLines(rows: IfItEndedNowRow[]): LiveLine[] {
  return rows
    .filter((r) => r.competition_id && r.league && r.season && r.match_day !== null && r.outcome)
    .map((r) => ({
      competitionId: r.competition_id as string,
      type: r.competition_type === "season" ? "season" : "knockout",
      league: r.league as string,
      season: r.season as string,
      matchDay: r.match_day as number,
      inPlay: r.in_play === true,
      team: r.team,
      opponent: r.opponent,
      teamGoals: r.team_goals,
      opponentGoals: r.opponent_goals,
      fixtureState: r.fixture_state,
      outcome: r.outcome as string,
      points: r.points,
      stillIn: r.still_in,
      remaining: r.remaining,
    }));
}

export function toLiveFixtures(rows: Awaited<ReturnType<typeof liveFixturesQuery>>): LiveFixture[] {
  return rows.map((r) => ({
    id: r.id,
    homeTeam: r.home_team,
    awayTeam: r.away_team,
    paused: r.live_status === "PAUSED",
    home: r.live_home_score,
    away: r.live_away_score,
  }));
}

export function toPickShares(rows: MatchDayPickSharesRow[]): PickShare[] {
  return rows.filter((r) => r.team).map((r) => ({ team: r.team as string, picks: r.picks ?? 0, share: r.share ?? 0, total: r.total ?? 0 }));
}
