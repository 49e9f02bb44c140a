/**
 * What the Scout page shows, as pure functions (display only: the database decides the lock, the points and
 * what may be saved; these only choose the words).
 */

import { formatDuration } from "~/lib/countdown";

const MINUTE = 60_000;

/**
 * The lock badge: "Predictions Locked" when the server says so or the deadline has passed (the browser's
 * countdown reaching zero only changes the words; the server still refuses), "Predictions Lock in 2d 18h",
 * "Predictions Lock in 2h 5m" (the countdown format of every page, formatDuration),
 * "Predictions Lock in 5m", "Predictions Lock in Less than 1 minute". Without a deadline: "Predictions Lock: TBA"
 * while the match day's fixtures all wait for their kickoff times (decision 027: no countdown), null when it has
 * no fixtures.
 */
export function lockBadgeText(
  lockTime: string | Date | null | undefined,
  now: Date | number,
  locked: boolean,
  hasFixtures = false,
): string | null {
  if (locked) return "Predictions Locked";
  if (!lockTime) return hasFixtures ? "Predictions Lock: TBA" : null;
  const end = new Date(lockTime).getTime();
  if (Number.isNaN(end)) return null;
  const ms = end - (typeof now === "number" ? now : now.getTime());
  if (ms <= 0) return "Predictions Locked";
  if (ms < MINUTE) return "Predictions Lock in Less than 1 minute";
  return `Predictions Lock in ${formatDuration(ms)}`;
}

export type BadgeTone = "muted" | "success" | "info" | "warning" | "danger";

export interface PredictionBadge {
  label: "Pending" | "Postponed: not counted" | "Exact!" | "Stacked" | "Goals" | "Result" | "Miss";
  /** The points awarded, null while the fixture is not complete. */
  points: number | null;
  tone: BadgeTone;
}

/**
 * A prediction's result badge from its fixture's status and the points the database awarded: Pending until
 * the fixture is complete, then Exact! (5), Stacked (3), Goals (2), Result (1), Miss (0). A postponed (or
 * abandoned) fixture scores 0 and is not counted: "Postponed: not counted".
 */
export function predictionBadge(fixtureStatus: string, pointsAwarded: number | null | undefined): PredictionBadge {
  if (fixtureStatus === "postponed") return { label: "Postponed: not counted", points: null, tone: "muted" };
  if (fixtureStatus !== "complete") return { label: "Pending", points: null, tone: "muted" };
  const points = pointsAwarded ?? 0;
  switch (points) {
    case 5:
      return { label: "Exact!", points, tone: "success" };
    case 3:
      return { label: "Stacked", points, tone: "info" };
    case 2:
      return { label: "Goals", points, tone: "info" };
    case 1:
      return { label: "Result", points, tone: "warning" };
    default:
      return { label: "Miss", points: 0, tone: "danger" };
  }
}

/** An entry as players see it: entry_index counts from 0, the page from 1 ("Entry 1"). */
export function entryNumber(entryIndex: number): number {
  return entryIndex + 1;
}

export function entryLabel(entryIndex: number): string {
  return `Entry ${entryNumber(entryIndex)}`;
}

/**
 * The rank a Scout leaderboard shows: "-" while nobody on the board has scored (before any result every entry
 * is equal), else the ordinal of the database's rank (equal points and exact count share a rank).
 */
export function scoutRankText(rank: number, topPoints: number, topExact: number, ordinal: (n: number) => string): string {
  if (!(topPoints > 0) && !(topExact > 0)) return "-";
  return ordinal(rank);
}

/** A leaderboard progress bar's width in percent of the top score (0 when nobody has scored). */
export function progressPercent(points: number, topPoints: number): number {
  if (!(topPoints > 0) || !(points > 0)) return 0;
  return Math.min(100, Math.round((points / topPoints) * 100));
}

/** Match days for the pickers: the current one first, down to 1. */
export function matchDaysNewestFirst(current: number): number[] {
  const days: number[] = [];
  for (let d = Math.max(1, Math.floor(current)); d >= 1; d--) days.push(d);
  return days;
}

/** Leaderboard rows shown, and the row count from which the note 'Showing top 100 entries' appears. */
export const LEADERBOARD_LIMIT = 100;
export const TOP_NOTE_FROM = 50;
export const PROGRESS_ROWS = 10;

export const BOTH_SCORES_MESSAGE = "Please enter both scores";
export const SCORE_RANGE_MESSAGE = "Scores must be whole numbers from 0 to 9.";

export interface ScoreInput {
  fixtureId: string;
  home: string;
  away: string;
}

export type ParsedScores =
  | { ok: true; predictions: { fixture_id: string; home_goals: number; away_goals: number }[] }
  | { ok: false; message: string; fixtureId: string | null };

/**
 * The score pairs a save sends: each must be a whole number 0 to 9 on both sides; a pair with both sides empty
 * is skipped (a whole-entry save of a partly filled entry), one side empty is 'Please enter both scores', and
 * nothing to save at all is the same message.
 */
export function parseScores(inputs: ScoreInput[]): ParsedScores {
  const predictions: { fixture_id: string; home_goals: number; away_goals: number }[] = [];
  for (const { fixtureId, home, away } of inputs) {
    const h = home.trim();
    const a = away.trim();
    if (h === "" && a === "") continue;
    if (h === "" || a === "") return { ok: false, message: BOTH_SCORES_MESSAGE, fixtureId };
    if (!/^\d$/.test(h) || !/^\d$/.test(a)) return { ok: false, message: SCORE_RANGE_MESSAGE, fixtureId };
    predictions.push({ fixture_id: fixtureId, home_goals: Number(h), away_goals: Number(a) });
  }
  if (predictions.length === 0)
    return { ok: false, message: BOTH_SCORES_MESSAGE, fixtureId: inputs.length === 1 ? inputs[0].fixtureId : null };
  return { ok: true, predictions };
}

/** The page's URL for a competition and tab (the default tab and absent values are left out). */
export function scoutHref(competitionId: string | null, params: Record<string, string | number | null | undefined> = {}) {
  const q = new URLSearchParams();
  if (competitionId) q.set("competition", competitionId);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `/scout?${s}` : "/scout";
}
