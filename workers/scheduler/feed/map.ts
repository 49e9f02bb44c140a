import { V4Match, V4MatchesResponse } from "./types";

/**
 * football-data.org v4 matches -> the rows private.sync_feed_league takes (migration 20261125140500). The status
 * mapping is the rules file's ("Fixtures and results from a data feed"); the score of a result is the score after
 * 90 minutes, never extra time or penalties.
 */

export type FeedState = "pending" | "live" | "complete" | "postponed";

export const STATUS_TO_STATE: Readonly<Record<string, FeedState>> = {
  SCHEDULED: "pending",
  TIMED: "pending",
  IN_PLAY: "live",
  PAUSED: "live",
  FINISHED: "complete",
  AWARDED: "complete",
  POSTPONED: "postponed",
  SUSPENDED: "postponed",
  CANCELLED: "postponed",
};

/** One match as the database function reads it (snake_case: jsonb_to_recordset's column names). */
export interface FeedRow {
  id: number;
  kickoff: string;
  /**
   * Whether the kickoff's time is known. SCHEDULED: the date is set and the time is not, and the service sends 00:00
   * UTC of that date (decision 027): the game shows "Time TBC" and no deadline counts it. Every other status has a
   * time (TIMED, and a match that is on, over or moved).
   */
  time_confirmed: boolean;
  match_day: number;
  state: FeedState;
  live_status: "IN_PLAY" | "PAUSED" | null;
  home_id: number;
  home_name: string;
  home_short: string | null;
  home_tla: string | null;
  away_id: number;
  away_name: string;
  away_short: string | null;
  away_tla: string | null;
  home_score: number | null;
  away_score: number | null;
  last_updated: string | null;
}

export interface Skipped {
  id: number | null;
  reason: string;
}

type Pair = { home?: number | null; away?: number | null } | null | undefined;
type Goals = { home: number; away: number };

const both = (p: Pair): Goals | null =>
  p && typeof p.home === "number" && typeof p.away === "number" ? { home: p.home, away: p.away } : null;

/**
 * The score after 90 minutes. With duration EXTRA_TIME or PENALTY_SHOOTOUT, fullTime counts extra time (and the
 * shootout's goals), so regularTime is the one; when it is missing, fullTime less extraTime and penalties.
 */
export function scoreAfter90(score: V4Match["score"]): Goals | null {
  if (!score) return null;
  const duration = score.duration ?? "REGULAR";
  const full = both(score.fullTime);
  if (duration === "REGULAR") return full;
  const regular = both(score.regularTime);
  if (regular) return regular;
  const extra = both(score.extraTime);
  const penalties = duration === "PENALTY_SHOOTOUT" ? both(score.penalties) : { home: 0, away: 0 };
  if (!full || !extra || !penalties) return null;
  return { home: full.home - extra.home - penalties.home, away: full.away - extra.away - penalties.away };
}

/** The running score of a match in play: regular time's while extra time is played, else fullTime. */
function liveScore(score: V4Match["score"]): Goals | null {
  if (!score) return null;
  return both(score.regularTime) ?? both(score.fullTime) ?? { home: 0, away: 0 };
}

const isoOrNull = (value: string | null | undefined): string | null => {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

/** One v4 match as a row, or why it is skipped (it stays as it is in the app until the feed says more). */
export function mapMatch(raw: unknown): { row: FeedRow } | { skipped: Skipped } {
  const parsed = V4Match.safeParse(raw);
  const id = (raw as { id?: unknown } | null)?.id;
  const rawId = typeof id === "number" ? id : null;
  if (!parsed.success) return { skipped: { id: rawId, reason: `unreadable match (${parsed.error.issues[0]?.path.join(".") || "match"})` } };
  const m = parsed.data;
  const skip = (reason: string) => ({ skipped: { id: m.id, reason } });

  const state = STATUS_TO_STATE[m.status];
  if (!state) return skip(`unknown status ${m.status}`);
  const kickoff = isoOrNull(m.utcDate);
  if (!kickoff) return skip("no kickoff time");
  if (!m.matchday || m.matchday < 1) return skip("no match day");
  const { homeTeam: home, awayTeam: away } = m;
  if (!home.id || !home.name || !away.id || !away.name) return skip("teams not known yet");
  if (home.id === away.id) return skip("the same team twice");

  let goals: Goals | null = null;
  if (state === "complete") {
    goals = scoreAfter90(m.score);
    if (!goals) return skip("finished without a score after 90 minutes");
    if (![goals.home, goals.away].every((g) => Number.isInteger(g) && g >= 0 && g <= 30)) {
      return skip("score outside 0 to 30");
    }
  } else if (state === "live") {
    goals = liveScore(m.score);
    if (!goals || ![goals.home, goals.away].every((g) => Number.isInteger(g) && g >= 0 && g <= 99)) {
      return skip("unreadable live score");
    }
  }

  return {
    row: {
      id: m.id,
      kickoff,
      time_confirmed: m.status !== "SCHEDULED",
      match_day: m.matchday,
      state,
      live_status: state === "live" ? (m.status as "IN_PLAY" | "PAUSED") : null,
      home_id: home.id,
      home_name: home.name,
      home_short: home.shortName ?? null,
      home_tla: home.tla ?? null,
      away_id: away.id,
      away_name: away.name,
      away_short: away.shortName ?? null,
      away_tla: away.tla ?? null,
      home_score: goals?.home ?? null,
      away_score: goals?.away ?? null,
      last_updated: isoOrNull(m.lastUpdated),
    },
  };
}

export type MappedMatches = { ok: true; rows: FeedRow[]; skipped: Skipped[] } | { ok: false; error: string };

/** A whole answer: its matches mapped one by one; an answer without a matches list is the feed's error. */
export function mapMatchesResponse(body: unknown): MappedMatches {
  const envelope = V4MatchesResponse.safeParse(body);
  if (!envelope.success) return { ok: false, error: "The feed's answer has no list of matches." };
  const rows: FeedRow[] = [];
  const skipped: Skipped[] = [];
  const seen = new Set<number>();
  for (const raw of envelope.data.matches) {
    const mapped = mapMatch(raw);
    if ("skipped" in mapped) skipped.push(mapped.skipped);
    else if (seen.has(mapped.row.id)) skipped.push({ id: mapped.row.id, reason: "listed twice" });
    else {
      seen.add(mapped.row.id);
      rows.push(mapped.row);
    }
  }
  return { ok: true, rows, skipped };
}
