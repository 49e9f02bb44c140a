import { z } from "zod";
import type { Db } from "~/db/types";
import { CREATE_SEASONS } from "~/lib/competition-options";
import { formatKickoff } from "~/lib/date-format";
import { failure, type ActionResult } from "./fixtures.server";
import { syncTimeText } from "./feed-sync.server";

/*
 * The admin panel's Data Feed section (decision 020): each league the feed has, its links and the feed's state,
 * hand-entered results the feed disagrees with, and what the game kept against the feed. Reads run as the admin
 * (row-level security: the feed's tables are admin-readable); Link, Unlink, Sync now, Accept feed and Keep mine
 * are the SQL functions of migration 20261125140400. The scheduler's feed job does the syncing itself.
 */

export interface FeedLink {
  season: string;
  linked: boolean;
  /** "Sync now" asked, not done yet. */
  syncRequested: boolean;
  /** While asked: when the feed tick that will sync it runs (the feed's budget did not allow it at once). */
  syncExpected: { at: string; text: string } | null;
  lastSync: { at: string; text: string } | null;
  lastFixturesChanged: number;
  lastResultsChanged: number;
  fixturesChanged: number;
  resultsChanged: number;
  requests: number;
  lastError: { message: string; at: string; text: string } | null;
  /** Set after a failure or the plan's rate limit: when the feed asks again. */
  nextAttempt: { at: string; text: string } | null;
}

export interface FeedLeague {
  league: string;
  code: string;
  links: FeedLink[];
}

export interface FeedReview {
  fixtureId: string;
  league: string;
  season: string;
  matchDay: number;
  homeTeam: string;
  awayTeam: string;
  mine: string;
  mineSource: "admin" | "csv";
  feed: string;
}

export interface FeedFlag {
  fixtureId: string;
  league: string;
  season: string;
  matchDay: number;
  homeTeam: string;
  awayTeam: string;
  message: string;
}

export interface FeedView {
  leagues: FeedLeague[];
  seasons: readonly string[];
  review: FeedReview[];
  flags: FeedFlag[];
}

const when = (value: Date | string | null, timeZone: string | null) =>
  value ? { at: new Date(value).toISOString(), text: formatKickoff(value, timeZone, { full: true }) } : null;

/** "2-1", "postponed" (the words the notices use). */
const resultText = (status: string, home: number | null, away: number | null) =>
  status === "complete" && home !== null && away !== null ? `${home}-${away}` : status === "postponed" ? "postponed" : "no result";

interface LinkRow {
  league: string;
  season: string;
  linked: boolean;
  sync_requested_at: Date | null;
  last_synced_at: Date | null;
  last_fixtures_changed: number;
  last_results_changed: number;
  fixtures_changed: number;
  results_changed: number;
  requests: number;
  last_error: string | null;
  last_error_at: Date | null;
  next_attempt_at: Date | null;
  paused_until: Date | null;
  sync_expected_at: Date | null;
}

interface FixtureRow {
  id: string;
  league: string;
  season: string;
  match_day: number;
  home_team: string;
  away_team: string;
  status: string;
  home_score: number | null;
  away_score: number | null;
  result_source: "admin" | "csv";
  feed_status: string;
  feed_home_score: number | null;
  feed_away_score: number | null;
  feed_flag: "moved_with_picks" | "move_refused" | null;
  feed_match_day: number | null;
  feed_kickoff_time: Date | null;
  feed_kickoff_confirmed: boolean;
}

/** Everything the section shows, in one round trip (the statements pipeline in the request's transaction). */
export async function loadFeed(db: Db, userId: string, timeZone: string | null, now: Date): Promise<FeedView> {
  return db.asUser(userId, async (tx) => {
    const [competitions, links, review, flagged] = await Promise.all([
      tx<{ league: string; code: string }[]>`select league, code from public.feed_competitions()`,
      tx<LinkRow[]>`
        select league, season, linked, sync_requested_at, last_synced_at, last_fixtures_changed, last_results_changed,
               fixtures_changed, results_changed, requests, last_error, last_error_at, next_attempt_at, paused_until,
               case when linked and sync_requested_at is not null
                    then public.feed_sync_expected_at(last_attempt_at, public.app_now()) end as sync_expected_at
          from public.feed_leagues
         order by league, season desc`,
      // hand-entered results the feed says otherwise about, unless the admin kept theirs against this feed result
      tx<FixtureRow[]>`
        select f.id::text, f.league, f.season, f.match_day, f.home_team, f.away_team, f.status, f.home_score, f.away_score,
               f.result_source, f.feed_status, f.feed_home_score, f.feed_away_score, f.feed_flag, f.feed_match_day,
               f.feed_kickoff_time, f.feed_kickoff_confirmed
          from public.fixtures f
         where f.result_source in ('admin', 'csv') and f.feed_status in ('complete', 'postponed')
           and (f.feed_status, f.feed_home_score, f.feed_away_score) is distinct from (f.status, f.home_score, f.away_score)
           and f.feed_kept_result is distinct from public.feed_result_key(f.feed_status, f.feed_home_score, f.feed_away_score)
         order by f.league, f.season, f.match_day, f.kickoff_time, f.id
         limit 200`,
      tx<FixtureRow[]>`
        select f.id::text, f.league, f.season, f.match_day, f.home_team, f.away_team, f.status, f.home_score, f.away_score,
               f.result_source, f.feed_status, f.feed_home_score, f.feed_away_score, f.feed_flag, f.feed_match_day,
               f.feed_kickoff_time, f.feed_kickoff_confirmed
          from public.fixtures f
         where f.feed_flag is not null or f.feed_kickoff_time is not null
         order by f.league, f.season, f.match_day, f.kickoff_time, f.id
         limit 200`,
    ]);
    return {
      seasons: CREATE_SEASONS,
      leagues: competitions.map(({ league, code }) => ({
        league,
        code,
        links: links
          .filter((l) => l.league === league)
          .map((l) => {
            const next = [l.next_attempt_at, l.paused_until].filter((d): d is Date => d !== null).sort((a, b) => +b - +a)[0] ?? null;
            return {
              season: l.season,
              linked: l.linked,
              syncRequested: l.sync_requested_at !== null,
              syncExpected: l.sync_expected_at
                ? { at: new Date(l.sync_expected_at).toISOString(), text: syncTimeText(l.sync_expected_at, timeZone, now) }
                : null,
              lastSync: when(l.last_synced_at, timeZone),
              lastFixturesChanged: l.last_fixtures_changed,
              lastResultsChanged: l.last_results_changed,
              fixturesChanged: l.fixtures_changed,
              resultsChanged: l.results_changed,
              requests: l.requests,
              lastError: l.last_error ? { message: l.last_error, ...when(l.last_error_at, timeZone)! } : null,
              nextAttempt: l.last_error && next ? when(next, timeZone) : null,
            };
          }),
      })),
      review: review.map((f) => ({
        fixtureId: f.id,
        league: f.league,
        season: f.season,
        matchDay: f.match_day,
        homeTeam: f.home_team,
        awayTeam: f.away_team,
        mine: resultText(f.status, f.home_score, f.away_score),
        mineSource: f.result_source,
        feed: resultText(f.feed_status, f.feed_home_score, f.feed_away_score),
      })),
      flags: flagged.map((f) => ({
        fixtureId: f.id,
        league: f.league,
        season: f.season,
        matchDay: f.match_day,
        homeTeam: f.home_team,
        awayTeam: f.away_team,
        message:
          f.feed_flag === "moved_with_picks"
            ? `The feed moved it to Match Day ${f.feed_match_day}; it stays on Match Day ${f.match_day} because picks were already made on it.`
            : f.feed_flag === "move_refused"
              ? `The feed moved it to Match Day ${f.feed_match_day}, where the same teams already play; it stays on Match Day ${f.match_day}.`
              : f.status === "postponed"
                ? `The feed rescheduled it to ${formatKickoff(f.feed_kickoff_time, timeZone, { full: true, confirmed: f.feed_kickoff_confirmed })}, after its match day's deadline: it stays postponed.`
                : `The feed moved its kickoff to ${formatKickoff(f.feed_kickoff_time, timeZone, { full: true, confirmed: f.feed_kickoff_confirmed })}, after its match day's deadline: the game keeps the kickoff players picked against.`,
      })),
    };
  });
}

const LinkSchema = z.object({
  league: z.string().trim().min(1, "Choose a league.").max(60),
  season: z.string().trim().min(1, "Choose a season.").max(20),
});
export { LinkSchema as FeedLeagueSchema };

export const FeedFixtureSchema = z.object({ fixtureId: z.string().regex(/^\d{1,15}$/, "Fixture not found.") });

type Call = "link" | "unlink" | "sync";

const DONE: Record<Call, (l: string) => string> = {
  link: (l) => `${l} is linked to the data feed.`,
  unlink: (l) => `${l} is unlinked from the data feed.`,
  sync: (l) => `Sync requested: ${l}.`,
};

/**
 * Link, Unlink or Sync now for one league's season. Link and Sync now ask for a sync; once the route has committed
 * that, the scheduler is asked to sync it at once (feed-sync.server.ts says what came of it).
 */
export async function feedLeagueCall(db: Db, userId: string, call: Call, input: z.output<typeof LinkSchema>): Promise<ActionResult> {
  const label = `${input.league} ${input.season}`;
  try {
    const [row] = await db.asUser(userId, (tx) =>
      call === "link"
        ? tx<{ code: string }[]>`select public.link_feed_league(${input.league}, ${input.season}) as code`
        : call === "unlink"
          ? tx<{ code: string }[]>`select public.unlink_feed_league(${input.league}, ${input.season}) as code`
          : tx<{ code: string }[]>`select public.request_feed_sync(${input.league}, ${input.season}) as code`,
    );
    if (row?.code === "not_linked") return { ok: false, status: 400, message: `${label} is not linked to the data feed.` };
    return { ok: true, message: DONE[call](label) };
  } catch (error) {
    return failure(error, "Failed to update the data feed.");
  }
}

/** Accept feed (its result replaces the hand-entered one) or Keep mine (the hand-entered one stays). */
export async function reviewCall(db: Db, userId: string, call: "accept" | "keep", fixtureId: string): Promise<ActionResult> {
  try {
    const [row] = await db.asUser(userId, (tx) =>
      call === "accept"
        ? tx<{ code: string }[]>`select public.accept_feed_result(${fixtureId}::bigint) as code`
        : tx<{ code: string }[]>`select public.keep_manual_result(${fixtureId}::bigint) as code`,
    );
    if (row?.code === "not_found") return { ok: false, status: 404, message: "Fixture not found." };
    if (row?.code === "nothing_to_accept") return { ok: false, status: 400, message: "The data feed has no result for this fixture." };
    return { ok: true, message: call === "accept" ? "The data feed's result is saved." : "Your result stays." };
  } catch (error) {
    return failure(error, "Failed to save the result.");
  }
}
