import type { GetScoutStateRow } from "~/db/row-types.generated";
import type { Db, NotNull } from "~/db/types";
import { LEADERBOARD_LIMIT } from "~/lib/scout";
import { normaliseFixtures, toIso, type FixtureRow } from "~/models/fixture-rows.server";

/**
 * The Scout game's reads (briefs/scout-contract.md; its writes: scout-writes.server.ts). Every rule (lock, tickets,
 * limits, points, leaderboard order) is a database function; this module only reads and shapes what they answer.
 */

export interface ScoutCompetition {
  id: string;
  name: string;
  league: string;
  season: string;
  currentMatchDay: number;
}

export interface ScoutPrize {
  title: string | null;
  description: string | null;
  termsUrl: string | null;
  imageUrl: string | null;
}

export interface ScoutState extends ScoutCompetition {
  /** Deadline of the current match day (1 h before its first known kickoff); null when it has no fixtures or none
   * of its kickoff times is known yet (TBA, decision 027). */
  lockTime: string | null;
  /** Decided by the database on the request clock. */
  locked: boolean;
  hasFixtures: boolean;
  footycoachTickets: number;
  referralTickets: number;
  prize: ScoutPrize | null;
}

export interface ScoutPrediction {
  homeGoals: number;
  awayGoals: number;
  /** Meaningful only when the fixture is complete. */
  pointsAwarded: number | null;
  exact: boolean;
}

export interface ScoutEntry {
  id: string;
  matchDay: number;
  entryIndex: number;
  totalPoints: number;
  exactCount: number;
  /** By fixture id. */
  predictions: Record<string, ScoutPrediction>;
}

export interface ScoutLeaderRow {
  rank: number;
  userId: string;
  displayName: string;
  totalPoints: number;
  exactCount: number;
  /** The entry's index (match day view) or the best entry's (season view), from 0. */
  entryIndex: number | null;
}

export type ScoutTab = "select" | "leaderboard" | "my-picks" | "rules";
export type LeaderboardView = "matchday" | "season";

export interface ScoutPageRequest {
  /** The competition in the URL (a valid uuid), or null for the newest active one. */
  competitionId: string | null;
  tab: ScoutTab;
  view: LeaderboardView;
  /** The match day asked for (My Picks, match day leaderboard); clamped to 1..current; null = current. */
  matchDay: number | null;
}

export interface ScoutPage {
  competitions: ScoutCompetition[];
  /** Null when there is no active Scout competition, or the one asked for is not one. */
  state: ScoutState | null;
  /** The match day the entries, fixtures and match-day leaderboard are of. */
  matchDay: number;
  entries: ScoutEntry[];
  fixtures: FixtureRow[];
  leaderboard: ScoutLeaderRow[];
  /** The player's own best row on the board shown, with its true rank (null when none). */
  myRow: ScoutLeaderRow | null;
  /**
   * "If it ended now" (decision 022): while a match of this match day is in play, the provisional board's top
   * entries and every entry of the player (mine), scored by SQL (public.live_scout_board); empty otherwise.
   */
  live: ScoutLiveRow[];
}

export interface ScoutLiveRow extends ScoutLeaderRow {
  entryId: string;
  /** Points of this entry's predictions of matches in play, on their live score. */
  livePoints: number;
  mine: boolean;
}

/** The player's state of a Scout competition (public.get_scout_state); its keys and names are NOT NULL columns. */
type StateRow = NotNull<GetScoutStateRow, "competition_id" | "name" | "league" | "season" | "current_match_day">;

interface BoardRow {
  rank: number | string;
  user_id: string;
  display_name: string | null;
  total_points: number;
  exact_count: number;
  entry_index?: number | null;
  best_entry_index?: number | null;
}

const toRow = (r: BoardRow): ScoutLeaderRow => ({
  rank: Number(r.rank),
  userId: r.user_id,
  displayName: r.display_name ?? "",
  totalPoints: Number(r.total_points),
  exactCount: Number(r.exact_count),
  entryIndex: (r.entry_index ?? r.best_entry_index ?? null) === null ? null : Number(r.entry_index ?? r.best_entry_index),
});

/**
 * Everything one view of /scout shows, in one transaction whose queries are all issued together (one
 * round trip with the session check): the competition list, the chosen competition's state, the player's
 * entries with their predictions and the match day's fixtures (Select, My Picks), and the leaderboard with
 * the player's own row (Leaderboard). The chosen competition and the match day are subqueries, so no query
 * waits for another.
 */
export async function getScoutPage(db: Db, userId: string, req: ScoutPageRequest): Promise<ScoutPage> {
  return db.asUser(userId, async (sql) => {
    const chosen = sql`(select c.id from public.competitions c
                        where c.type = 'scout' and c.status = 'active' ${req.competitionId ? sql`and c.id = ${req.competitionId}::uuid` : sql``}
                        order by c.created_at desc, c.id limit 1)`;
    const md =
      req.tab === "select"
        ? sql`(select c.current_match_day from public.competitions c where c.id = ${chosen})`
        : sql`(select least(greatest(coalesce(${req.matchDay}::int, c.current_match_day), 1), c.current_match_day)
                from public.competitions c where c.id = ${chosen})`;
    const wantsPicks = req.tab === "select" || req.tab === "my-picks";
    const wantsBoard = req.tab === "leaderboard";
    const none = Promise.resolve([] as never[]);

    const wantsLive = wantsPicks || (wantsBoard && req.view === "matchday");
    const [competitions, states, mdRows, entries, predictions, fixtures, board, mine, live] = await Promise.all([
      sql<{ id: string; name: string; league: string; season: string; current_match_day: number }[]>`
        select c.id, c.name, c.league, c.season, c.current_match_day from public.competitions c
         where c.type = 'scout' and c.status = 'active'
         order by c.created_at desc, c.id`,
      sql<StateRow[]>`select s.* from public.get_scout_state(${chosen}) s`,
      sql<{ match_day: number | null }[]>`select ${md} as match_day`,
      wantsPicks
        ? sql<{ id: string; match_day: number; entry_index: number; total_points: number; exact_count: number }[]>`
            select e.id, e.match_day, e.entry_index, e.total_points, e.exact_count
              from public.scout_entries e
             where e.competition_id = ${chosen} and e.user_id = ${userId} and e.match_day = ${md}
             order by e.entry_index`
        : none,
      wantsPicks
        ? sql<
            {
              scout_entry_id: string;
              fixture_id: string;
              home_goals: number;
              away_goals: number;
              points_awarded: number | null;
              exact: boolean | null;
            }[]
          >`
            select p.scout_entry_id, p.fixture_id::text as fixture_id, p.home_goals, p.away_goals, p.points_awarded, p.exact
              from public.scout_predictions p
              join public.scout_entries e on e.id = p.scout_entry_id
             where e.competition_id = ${chosen} and e.user_id = ${userId} and e.match_day = ${md}`
        : none,
      wantsPicks
        ? sql`
            select f.id::text as id, f.kickoff_time as "kickoffTime", f.kickoff_confirmed as "kickoffConfirmed",
                   f.home_team as "homeTeam", f.away_team as "awayTeam",
                   f.home_score as "homeScore", f.away_score as "awayScore", f.status
              from public.fixtures f
              join public.competitions c on c.id = ${chosen}
             where f.league = c.league and f.season = c.season and f.match_day = ${md}
             order by f.kickoff_time, f.id`
        : none,
      wantsBoard
        ? req.view === "season"
          ? sql<BoardRow[]>`
              select l.* from public.competitions c
               cross join lateral public.get_scout_leaderboard_season(c.league, c.season, ${LEADERBOARD_LIMIT}) l
               where c.id = ${chosen}`
          : sql<BoardRow[]>`
              select l.* from public.competitions c
               cross join lateral public.get_scout_leaderboard_matchday(c.league, c.season, ${md}, ${LEADERBOARD_LIMIT}) l
               where c.id = ${chosen}`
        : none,
      wantsBoard
        ? req.view === "season"
          ? sql<BoardRow[]>`
              select l.* from public.competitions c
               cross join lateral public.get_scout_leaderboard_season_player(c.league, c.season, ${userId}::uuid) l
               where c.id = ${chosen}`
          : sql<BoardRow[]>`
              select l.* from public.competitions c
               cross join lateral public.get_scout_leaderboard_matchday_player(c.league, c.season, ${md}, ${userId}::uuid) l
               where c.id = ${chosen}`
        : none,
      // the live match day, in the same batch (decision 022): provisional points per entry and the provisional board
      wantsLive
        ? sql<(BoardRow & { entry_id: string; live_points: number; mine: boolean })[]>`
            select l.* from public.competitions c
             cross join lateral public.live_scout_board(c.league, c.season, ${md}, ${LEADERBOARD_LIMIT}) l
             where c.id = ${chosen}`
        : none,
    ]);

    const s = states[0];
    const state: ScoutState | null = s
      ? {
          id: s.competition_id,
          name: s.name,
          league: s.league,
          season: s.season,
          currentMatchDay: s.current_match_day,
          lockTime: toIso(s.lock_time),
          locked: s.locked === true,
          hasFixtures: s.has_fixtures === true,
          footycoachTickets: s.footycoach_tickets ?? 0,
          referralTickets: s.referral_tickets ?? 0,
          prize:
            s.prize_title || s.prize_description || s.prize_terms_url || s.prize_image_url
              ? { title: s.prize_title, description: s.prize_description, termsUrl: s.prize_terms_url, imageUrl: s.prize_image_url }
              : null,
        }
      : null;

    const byEntry = new Map<string, Record<string, ScoutPrediction>>();
    for (const p of predictions) {
      const map = byEntry.get(p.scout_entry_id) ?? {};
      map[p.fixture_id] = {
        homeGoals: Number(p.home_goals),
        awayGoals: Number(p.away_goals),
        pointsAwarded: p.points_awarded === null ? null : Number(p.points_awarded),
        exact: Boolean(p.exact),
      };
      byEntry.set(p.scout_entry_id, map);
    }

    return {
      competitions: competitions.map((c) => ({
        id: c.id,
        name: c.name,
        league: c.league,
        season: c.season,
        currentMatchDay: Number(c.current_match_day),
      })),
      state,
      matchDay: Number(mdRows[0]?.match_day ?? state?.currentMatchDay ?? 1),
      entries: entries.map((e) => ({
        id: e.id,
        matchDay: Number(e.match_day),
        entryIndex: Number(e.entry_index),
        totalPoints: Number(e.total_points),
        exactCount: Number(e.exact_count),
        predictions: byEntry.get(e.id) ?? {},
      })),
      fixtures: normaliseFixtures(fixtures as readonly Record<string, unknown>[]),
      leaderboard: board.map(toRow),
      myRow: mine[0] ? toRow(mine[0]) : null,
      live: live.map((r) => ({ ...toRow(r), entryId: r.entry_id, livePoints: Number(r.live_points), mine: r.mine === true })),
    };
  });
}
