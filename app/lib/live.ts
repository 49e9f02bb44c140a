/*
 * The live match day's words (decision 022). The outcomes come from SQL (public.if_it_ended_now); this only
 * says them. Shared by the server render and the browser.
 */

export interface LiveKey {
  league: string;
  season: string;
  matchDay: number;
}

export interface LiveLine extends LiveKey {
  competitionId: string;
  type: "knockout" | "season";
  /** A fixture of the match day is in play or complete: the provisional view is shown. */
  inPlay: boolean;
  team: string | null;
  opponent: string | null;
  teamGoals: number | null;
  opponentGoals: number | null;
  /** in_play | paused | complete | postponed | not_started; null without a pick. */
  fixtureState: string | null;
  /**
   * knockout: through | life_lost | out | rolled_over | joint_winner | waiting | not_playing (the organiser's rules
   * applied: decision 028); season: win | draw | loss | not_started | postponed | no_pick.
   */
  outcome: string;
  points: number | null;
  stillIn: number | null;
  remaining: number | null;
  /** Knockout: the player's lives if it ended now. */
  livesLeft: number | null;
  /** The server made the player's pick at the deadline ("Auto-picked"). */
  autoPicked: boolean;
}

export interface LiveFixture {
  id: string;
  homeTeam: string;
  awayTeam: string;
  paused: boolean;
  home: number;
  away: number;
}

export interface PickShare {
  team: string;
  picks: number;
  share: number;
  total: number;
}

/** "Arsenal 1-0 up", "Arsenal 0-1 down", "Arsenal 1-1" (the picked team's goals first), with the match's state. */
function scoreText(l: LiveLine): string | null {
  if (!l.team) return null;
  if (l.fixtureState === "postponed") return `${l.team} (postponed)`;
  if (l.teamGoals === null || l.opponentGoals === null) return `${l.team}: not started yet`;
  const score = `${l.teamGoals}-${l.opponentGoals}`;
  const where = l.teamGoals > l.opponentGoals ? " up" : l.teamGoals < l.opponentGoals ? " down" : "";
  const state = l.fixtureState === "complete" ? " (full time)" : l.fixtureState === "paused" ? " (half-time)" : "";
  return `${l.team} ${score}${where}${state}`;
}

/** The player's own line, e.g. "Arsenal 1-0 up: through if it ends now"; null when there is nothing to say. */
export function liveLineText(l: LiveLine): string | null {
  const score = scoreText(l);
  if (l.type === "season") {
    if (!score) return "No pick: no points this match day";
    if (l.points === null) return score.endsWith("not started yet") ? score : `${score}: no points`;
    return `${score}: ${l.points} ${l.points === 1 ? "point" : "points"} if it ends now`;
  }
  switch (l.outcome) {
    case "not_playing":
      return null;
    case "waiting":
      return score;
    case "through":
      return l.fixtureState === "postponed" ? `${score}: through (a postponed match keeps you in)` : `${score}: through if it ends now`;
    case "rolled_over":
      return `${score ?? "No pick"}: everyone still in would go out, so nobody does if it ends now (roll-over)`;
    case "joint_winner":
      return `${score ?? "No pick"}: everyone still in would go out, so you would all win together if it ends now (joint winners)`;
    case "life_lost":
      return `${score ?? "No pick"}: loses a life if it ends now (${l.livesLeft ?? 0} ${l.livesLeft === 1 ? "life" : "lives"} left)`;
    default:
      if (!score) return "No pick: out if it ends now";
      return l.teamGoals !== null && l.teamGoals === l.opponentGoals
        ? `${score}: out if it ends now (a draw eliminates)`
        : `${score}: out if it ends now`;
  }
}

/** "If it ended now: 3 of 5 still in" (knockout only). */
export function stillInText(l: LiveLine): string | null {
  if (l.type !== "knockout" || l.stillIn === null || l.remaining === null) return null;
  return `If it ended now: ${l.stillIn} of ${l.remaining} still in`;
}

export function liveKeyId(k: LiveKey): string {
  return `${k.league}|${k.season}|${k.matchDay}`;
}

/** The match day a page of this competition listens to while it is played (its current one), else none. */
export function liveKeyOf(c: { status: string; league: string; season: string; currentMatchDay: number }): LiveKey | null {
  return c.status === "active" ? { league: c.league, season: c.season, matchDay: c.currentMatchDay } : null;
}

/** The marking of every provisional view (the spec's words). */
export const PROVISIONAL_HEADING = "Provisional: if it ended now";

/** A pick on the match day being played, with its score (final or live). */
export interface LivePick {
  team: string;
  teamGoals: number | null;
  opponentGoals: number | null;
  fixtureState: string | null;
}

/** A row of the knockout's provisional leaderboard (public.live_knockout_table). */
export interface LiveKnockoutRow {
  userId: string;
  username: string;
  position: number;
  /** through | waiting | life_lost | rolled_over | joint_winner | out | eliminated (before this match day). */
  outcome: string;
  knockedOutOn: number | null;
  pick: LivePick | null;
  /** Lives left if it ended now (0 when out). */
  livesLeft: number | null;
  autoPicked: boolean;
}

/** A row of the season's provisional table (public.live_season_table). */
export interface LiveSeasonRow {
  userId: string;
  username: string;
  position: number;
  rank: number;
  /** The stored rank (before this match day's live scores); null for a member not ranked yet. */
  rankBefore: number | null;
  points: number;
  /** This match day's points if it ended now; null without a scored pick. */
  livePoints: number | null;
  goalDifference: number;
  goalsFor: number;
  pick: LivePick | null;
  autoPicked: boolean;
  /** The player's joker is on this match day (its points count double). */
  joker: boolean;
}

/** A knockout player's route: teams used (with the match day) and teams still available. */
export interface KnockoutRoute {
  /** autoPicked: the server made that pick at the deadline ("Auto-picked"). */
  used: { team: string; matchDay: number; autoPicked: boolean }[];
  available: string[];
}

/** "Arsenal 1-0", "Arsenal (not started)", "Arsenal (postponed)": the pick with its score, the picked team's goals first. */
export function pickScoreText(p: LivePick | null): string {
  if (!p) return "No pick";
  if (p.fixtureState === "postponed") return `${p.team} (postponed)`;
  if (p.teamGoals === null || p.opponentGoals === null) return `${p.team} (not started)`;
  const state = p.fixtureState === "complete" ? " (full time)" : p.fixtureState === "paused" ? " (half-time)" : "";
  return `${p.team} ${p.teamGoals}-${p.opponentGoals}${state}`;
}

/** The knockout outcome if it ended now, in the leaderboard's words. */
export function knockoutOutcomeText(r: Pick<LiveKnockoutRow, "outcome" | "knockedOutOn">): string {
  switch (r.outcome) {
    case "through":
      return "Through";
    case "waiting":
      return "Not started";
    case "rolled_over":
      return "Through (roll-over)";
    case "joint_winner":
      return "Joint winner";
    case "life_lost":
      return "Loses a life";
    case "out":
      return "Out";
    default:
      return r.knockedOutOn ? `Eliminated (Match Day ${r.knockedOutOn})` : "Eliminated";
  }
}

/** A rank change: direction, arrow and the words a screen reader says ("up 2 places"). */
export function rankChange(before: number | null, now: number): { dir: "up" | "down" | "same"; arrow: string; text: string } {
  if (before === null || before === now) return { dir: "same", arrow: "–", text: "no change" };
  const n = Math.abs(before - now);
  const places = `${n} ${n === 1 ? "place" : "places"}`;
  return before > now ? { dir: "up", arrow: `▲${n}`, text: `up ${places}` } : { dir: "down", arrow: `▼${n}`, text: `down ${places}` };
}
