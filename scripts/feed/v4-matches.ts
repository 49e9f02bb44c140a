/**
 * football-data.org v4 match data for the local server, the tests and the simulator: the shapes the API lists, and
 * builders for teams, seasons and scores. Pure (no I/O), so the Worker tests in workerd can import it too.
 */

export interface V4TeamRef {
  id: number | null;
  name: string | null;
  shortName?: string | null;
  tla?: string | null;
  crest?: string | null;
}

export interface V4ScorePair {
  home: number | null;
  away: number | null;
}

export interface V4Score {
  winner?: "HOME_TEAM" | "AWAY_TEAM" | "DRAW" | null;
  /** REGULAR, EXTRA_TIME or PENALTY_SHOOTOUT (tests also send values the API does not have). */
  duration?: string;
  fullTime: V4ScorePair;
  halfTime: V4ScorePair;
  regularTime?: V4ScorePair;
  extraTime?: V4ScorePair;
  penalties?: V4ScorePair;
}

/** A match as the API lists it (area, competition and season are added when served). */
export interface V4MatchData {
  id: number;
  utcDate: string;
  status: string;
  matchday: number | null;
  stage?: string;
  group?: string | null;
  lastUpdated: string;
  homeTeam: V4TeamRef;
  awayTeam: V4TeamRef;
  score: V4Score;
}

export interface SeasonTeam {
  id: number;
  name: string;
  shortName: string;
  tla: string;
}

/** A team as the feed names it: "Arsenal" -> "Arsenal FC" (names starting "AFC " keep theirs). */
export function feedTeam(id: number, appName: string): SeasonTeam {
  const name = /^(AFC|FC) /.test(appName) || / FC$/.test(appName) ? appName : `${appName} FC`;
  const tla = appName
    .replace(/^AFC /, "")
    .replace(/[^A-Za-z]/g, "")
    .slice(0, 3)
    .toUpperCase();
  return { id, name, shortName: appName.replace(/^AFC /, ""), tla };
}

const pair = (home: number | null, away: number | null): V4ScorePair => ({ home, away });

/** A match not played yet. */
export function scheduledMatch(
  id: number,
  matchday: number,
  utcDate: Date,
  home: SeasonTeam,
  away: SeasonTeam,
  lastUpdated = utcDate,
): V4MatchData {
  return {
    id,
    utcDate: utcDate.toISOString().replace(/\.\d{3}Z$/, "Z"),
    status: "TIMED",
    matchday,
    stage: "REGULAR_SEASON",
    group: null,
    lastUpdated: lastUpdated.toISOString().replace(/\.\d{3}Z$/, "Z"),
    homeTeam: { ...home, crest: null },
    awayTeam: { ...away, crest: null },
    score: { winner: null, duration: "REGULAR", fullTime: pair(null, null), halfTime: pair(null, null) },
  };
}

/** The score node of a finished match (90 minutes). */
export function finishedScore(home: number, away: number): V4Score {
  return {
    winner: home > away ? "HOME_TEAM" : home < away ? "AWAY_TEAM" : "DRAW",
    duration: "REGULAR",
    fullTime: pair(home, away),
    halfTime: pair(Math.min(home, 1), Math.min(away, 1)),
  };
}

/** The score node of a match that went to extra time (and penalties): fullTime counts both, as the API does. */
export function extraTimeScore(regular: [number, number], extra: [number, number], penalties?: [number, number]): V4Score {
  const full: [number, number] = [regular[0] + extra[0] + (penalties?.[0] ?? 0), regular[1] + extra[1] + (penalties?.[1] ?? 0)];
  return {
    winner: full[0] > full[1] ? "HOME_TEAM" : "AWAY_TEAM",
    duration: penalties ? "PENALTY_SHOOTOUT" : "EXTRA_TIME",
    fullTime: pair(full[0], full[1]),
    halfTime: pair(0, 0),
    regularTime: pair(regular[0], regular[1]),
    extraTime: pair(extra[0], extra[1]),
    ...(penalties ? { penalties: pair(penalties[0], penalties[1]) } : {}),
  };
}

/** Every team meets every other twice (the circle method): match day d's pairings, home first. */
export function doubleRoundRobin<T>(teams: readonly T[]): [T, T][][] {
  const n = teams.length;
  const ring = [...teams];
  const firstHalf: [T, T][][] = [];
  for (let round = 0; round < n - 1; round++) {
    const day: [T, T][] = [];
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i];
      const b = ring[n - 1 - i];
      day.push(round % 2 === 0 ? [a, b] : [b, a]);
    }
    firstHalf.push(day);
    ring.splice(1, 0, ring.pop() as T);
  }
  return [...firstHalf, ...firstHalf.map((day) => day.map(([a, b]) => [b, a] as [T, T]))];
}

export interface SeasonPlan {
  /** Team names as the app calls them; the feed adds " FC". */
  teams: readonly string[];
  /** First match id; ids follow in match-day order. */
  firstMatchId: number;
  firstTeamId: number;
  /** Kickoff of match day 1's first match; match days a week apart, matches an hour apart. */
  firstKickoff: Date;
}

/** A whole double round-robin season, every match TIMED. */
export function buildSeason(plan: SeasonPlan): V4MatchData[] {
  const teams = plan.teams.map((name, i) => feedTeam(plan.firstTeamId + i, name));
  const matches: V4MatchData[] = [];
  let id = plan.firstMatchId;
  doubleRoundRobin(teams).forEach((day, d) => {
    day.forEach(([home, away], i) => {
      const kickoff = new Date(plan.firstKickoff.getTime() + d * 7 * 86_400_000 + i * 3_600_000);
      matches.push(scheduledMatch(id++, d + 1, kickoff, home, away));
    });
  });
  return matches;
}
