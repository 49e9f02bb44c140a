import type { IfItEndedNowRow, MatchDayPickSharesRow } from "~/db/row-types.generated";
import type { PlayerSql } from "~/db/types";
import type { KnockoutRoute, LiveFixture, LiveKnockoutRow, LiveLine, LivePick, LiveSeasonRow, PickShare } from "~/lib/live";

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
      livesLeft: r.lives_left,
      autoPicked: r.auto_picked === true,
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

/*
 * The provisional tables (decision 022, addendum). SQL answers no row unless the match day is being played and the
 * caller may see its picks (a member, after the deadline): the page shows them only when there are rows.
 */

interface KnockoutTableRow {
  user_id: string;
  username: string | null;
  knocked_out_on: number | null;
  team: string | null;
  team_goals: number | null;
  opponent_goals: number | null;
  fixture_state: string | null;
  outcome: string;
  position: number;
  still_in: number;
  remaining: number;
  lives_left: number | null;
  auto_picked: boolean;
}

interface SeasonTableRow {
  user_id: string;
  username: string | null;
  team: string | null;
  team_goals: number | null;
  opponent_goals: number | null;
  fixture_state: string | null;
  live_points: number | null;
  points: number;
  goal_difference: number;
  goals_for: number;
  wins: number;
  draws: number;
  losses: number;
  rank: number;
  rank_before: number | null;
  position: number;
  auto_picked: boolean;
  joker: boolean;
}

/** One page of the knockout's provisional leaderboard: who would go through, who would be out (public.live_knockout_table). */
export function liveKnockoutTableQuery(sql: PlayerSql, competitionId: string, offset: number, limit: number) {
  return sql<KnockoutTableRow[]>`
    select k.user_id, k.username, k.knocked_out_on, k.team, k.team_goals, k.opponent_goals, k.fixture_state, k.outcome,
           k.position, k.still_in, k.remaining, k.lives_left, k.auto_picked
      from public.live_knockout_table(${competitionId}, ${offset}, ${limit}) k
     order by k.position`;
}

/** One page of the season's provisional table with the stored rank beside it (public.live_season_table). */
export function liveSeasonTableQuery(sql: PlayerSql, competitionId: string, offset: number, limit: number) {
  return sql<SeasonTableRow[]>`
    select s.user_id, s.username, s.team, s.team_goals, s.opponent_goals, s.fixture_state, s.live_points, s.points,
           s.goal_difference, s.goals_for, s.wins, s.draws, s.losses, s.rank, s.rank_before, s.position, s.auto_picked,
           s.joker
      from public.live_season_table(${competitionId}, ${offset}, ${limit}) s
     order by s.position`;
}

/** A row of public.knockout_route: a team used (with its match day and whether it was auto-picked) or still available. */
type RouteRow = { team: string; match_day: number | null; used: boolean; auto_picked: boolean | null };

/** A knockout player's route (public.knockout_route: row-level security hides a pick before its deadline). */
export function knockoutRouteQuery(sql: PlayerSql, competitionId: string, userId: string) {
  return sql<RouteRow[]>`
    select r.team, r.match_day, r.used, r.auto_picked from public.knockout_route(${competitionId}, ${userId}::uuid) r`;
}

const pickOf = (r: {
  team: string | null;
  team_goals: number | null;
  opponent_goals: number | null;
  fixture_state: string | null;
}): LivePick | null =>
  r.team ? { team: r.team, teamGoals: r.team_goals, opponentGoals: r.opponent_goals, fixtureState: r.fixture_state } : null;

export function toLiveKnockoutRows(rows: readonly KnockoutTableRow[]): LiveKnockoutRow[] {
  return rows.map((r) => ({
    userId: r.user_id,
    username: r.username ?? "",
    position: r.position,
    outcome: r.outcome,
    knockedOutOn: r.knocked_out_on,
    pick: pickOf(r),
    livesLeft: r.lives_left,
    autoPicked: r.auto_picked === true,
  }));
}

export function toLiveSeasonRows(rows: readonly SeasonTableRow[]): LiveSeasonRow[] {
  return rows.map((r) => ({
    userId: r.user_id,
    username: r.username ?? "",
    position: r.position,
    rank: r.rank,
    rankBefore: r.rank_before,
    points: r.points,
    livePoints: r.live_points,
    goalDifference: r.goal_difference,
    goalsFor: r.goals_for,
    pick: pickOf(r),
    autoPicked: r.auto_picked === true,
    joker: r.joker === true,
  }));
}

export function toRoute(rows: readonly RouteRow[]): KnockoutRoute {
  return {
    used: rows
      .filter((r) => r.used && r.match_day !== null)
      .map((r) => ({ team: r.team, matchDay: r.match_day as number, autoPicked: r.auto_picked === true })),
    available: rows.filter((r) => !r.used).map((r) => r.team),
  };
}
