/**
 * The local feed simulator (`FEED_SIMULATOR=1 npm start`, decision 020): a football-data.org v4 server
 * (scripts/feed/football-data-server.ts) whose season is the local database's league as it stands, with the
 * current match day played forward so a newcomer sees the feed at work: its kickoffs are brought forward to a few
 * minutes from now (the deadline moves with them), the matches go IN_PLAY with their scores changing, PAUSED at
 * half-time, then FINISHED, and one result is corrected by the "feed" a little later (a history row and notices to
 * the players it changes). Earlier match days are reported FINISHED with the scores already stored, later ones
 * TIMED, so the first sync changes nothing else.
 *
 * Run on its own (prints its URL and token): DATABASE_URL=postgres://... npx tsx scripts/feed-simulator.ts
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { startFootballDataServer } from "./feed/football-data-server";
import { feedTeam, finishedScore, scheduledMatch, type V4MatchData, type V4Score } from "./feed/v4-matches";
import { runIfMain } from "./db/run-main";

export interface FeedSimulatorOptions {
  databaseUrl: string;
  league?: string;
  season?: string;
  port?: number;
  token?: string;
  /** Real milliseconds per match minute (default 2000: a match lasts about three and a half minutes). */
  minuteMs?: number;
  /** Minutes from now to the first kickoff of the match day played (default 2). */
  leadMinutes?: number;
  log?: (message: string) => void;
}

export interface FeedSimulator {
  url: string;
  token: string;
  code: string;
  seasonYear: number;
  league: string;
  season: string;
  matchDay: number | null;
  stop(): Promise<void>;
}

const CODES: Record<string, string> = {
  "Premier League": "PL",
  "La Liga": "PD",
  "Serie A": "SA",
  Bundesliga: "BL1",
  "Ligue 1": "FL1",
  Championship: "ELC",
};

interface FixtureRow {
  id: string;
  match_day: number;
  kickoff_time: Date;
  home_team: string;
  away_team: string;
  status: "pending" | "complete" | "postponed";
  home_score: number | null;
  away_score: number | null;
}

/** A small deterministic generator per match (the same goals on every restart). */
function seeded(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** The minutes (1..90) of a match's goals, each for home or away. */
function goalsOf(matchId: number): { minute: number; side: "home" | "away" }[] {
  const rand = seeded(matchId * 2654435761);
  const count = Math.floor(rand() * 5);
  return Array.from({ length: count }, () => ({
    minute: 1 + Math.floor(rand() * 90),
    side: rand() < 0.55 ? ("home" as const) : ("away" as const),
  })).sort((a, b) => a.minute - b.minute);
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");

export async function startFeedSimulator(opts: FeedSimulatorOptions): Promise<FeedSimulator> {
  const league = opts.league ?? "Premier League";
  const season = opts.season ?? "2025/26";
  const code = CODES[league];
  if (!code) throw new Error(`the feed has no code for ${league}`);
  const seasonYear = Number(season.slice(0, 4));
  const minuteMs = opts.minuteMs ?? 2000;
  const log = opts.log ?? ((m: string) => console.log(`[feed simulator] ${m}`));
  const token = opts.token ?? randomBytes(16).toString("hex");

  const sql = postgres(opts.databaseUrl, { max: 1, onnotice: () => {} });
  let fixtures: FixtureRow[];
  try {
    fixtures = await sql<FixtureRow[]>`
      select id::text, match_day, kickoff_time, home_team, away_team, status, home_score, away_score
        from public.fixtures where league = ${league} and season = ${season} order by match_day, kickoff_time, id`;
  } finally {
    await sql.end({ timeout: 5 });
  }

  const names = [...new Set(fixtures.flatMap((f) => [f.home_team, f.away_team]))].sort();
  const teams = new Map(names.map((name, i) => [name, feedTeam(500 + i, name)]));
  const matchDay = fixtures.find((f) => f.status === "pending")?.match_day ?? null;
  const start = Date.now() + (opts.leadMinutes ?? 2) * 60_000;
  const played = fixtures.filter((f) => f.match_day === matchDay);
  // two kickoff slots five minutes apart, as a real match day has a few
  const kickoffOf = new Map(played.map((f, i) => [f.id, start + Math.floor(i / Math.ceil(played.length / 2)) * 5 * 60_000]));
  const corrected = played[0]?.id;

  /** The season as the feed says it at time `now`. */
  function matchesAt(now: number): V4MatchData[] {
    return fixtures.map((f) => {
      const id = 9_000_000 + Number(f.id);
      const home = teams.get(f.home_team)!;
      const away = teams.get(f.away_team)!;
      const kickoff = kickoffOf.get(f.id) ?? new Date(f.kickoff_time).getTime();
      const base = scheduledMatch(id, f.match_day, new Date(kickoff), home, away, new Date(start - 60 * 60_000));
      if (!kickoffOf.has(f.id)) {
        if (f.status === "complete") return { ...base, status: "FINISHED", score: finishedScore(f.home_score!, f.away_score!) };
        if (f.status === "postponed") return { ...base, status: "POSTPONED" };
        return base;
      }
      // played forward: match minute m of 105 (45, then 15 of half-time, then 45)
      const elapsed = Math.floor((now - kickoff) / minuteMs);
      if (elapsed < 0) return base;
      const goals = goalsOf(id);
      const minute = elapsed < 45 ? elapsed : elapsed < 60 ? 45 : Math.min(90, elapsed - 15);
      const count = (upTo: number, side: "home" | "away") => goals.filter((g) => g.minute <= upTo && g.side === side).length;
      const scored = goals.filter((g) => g.minute <= minute);
      const home_ = count(minute, "home");
      const away_ = count(minute, "away");
      const lastGoal = scored.length ? scored[scored.length - 1].minute : 0;
      const changedAt = (m: number) => kickoff + (m <= 45 ? m : m + 15) * minuteMs;
      if (elapsed >= 105) {
        const finishedAt = kickoff + 105 * minuteMs;
        // one result corrected a minute and a half after the whistle (an own goal given to the wrong side)
        if (f.id === corrected && now >= finishedAt + 90_000) {
          return { ...base, status: "FINISHED", score: finishedScore(home_, away_ + 1), lastUpdated: iso(finishedAt + 90_000) };
        }
        return { ...base, status: "FINISHED", score: finishedScore(home_, away_), lastUpdated: iso(finishedAt) };
      }
      const score: V4Score = {
        winner: null,
        duration: "REGULAR",
        fullTime: { home: home_, away: away_ },
        halfTime: elapsed >= 45 ? { home: count(45, "home"), away: count(45, "away") } : { home: null, away: null },
      };
      const status = elapsed >= 45 && elapsed < 60 ? "PAUSED" : "IN_PLAY";
      const updated = Math.max(
        kickoff,
        changedAt(lastGoal),
        elapsed >= 45 ? changedAt(45) : 0,
        elapsed >= 60 ? kickoff + 60 * minuteMs : 0,
      );
      return { ...base, status, score, lastUpdated: iso(updated) };
    });
  }

  const server = await startFootballDataServer({ port: opts.port, token, limitPerMinute: 10 });
  const refresh = () => server.setMatches(code, seasonYear, matchesAt(Date.now()));
  refresh();
  const timer = setInterval(refresh, 1000);
  timer.unref();
  log(
    matchDay === null
      ? `${league} ${season}: no match day left to play; serving the season as it stands`
      : `${league} ${season}: match day ${matchDay} kicks off at ${new Date(start).toISOString().slice(11, 16)} UTC (moved forward, so its deadline has passed), played at ${minuteMs} ms a match minute`,
  );
  return {
    url: server.url,
    token,
    code,
    seasonYear,
    league,
    season,
    matchDay,
    async stop() {
      clearInterval(timer);
      await server.close();
    },
  };
}

runIfMain(import.meta.url, async () => {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database whose league the simulator plays");
  const sim = await startFeedSimulator({ databaseUrl, port: Number(process.env.FEED_SIMULATOR_PORT ?? 0) || undefined });
  console.log(`FOOTBALL_DATA_URL=${sim.url}\nFOOTBALL_DATA_TOKEN=${sim.token}`);
  await new Promise(() => {});
});
