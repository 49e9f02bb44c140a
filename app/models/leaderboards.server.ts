import type { Db } from "~/db/types";
import { pageCount, pageWindow } from "~/lib/paging";
import { championOf } from "~/models/competition-detail.server";
import {
  competitionInfoQuery,
  toCompetitionInfo,
  toKnockoutStanding,
  toSeasonStanding,
  knockoutStandingColumns,
} from "~/models/competition-rows.server";
import {
  knockoutRouteQuery,
  liveKnockoutTableQuery,
  liveLinesQuery,
  liveSeasonTableQuery,
  pickSharesQuery,
  toLiveKnockoutRows,
  toLiveLines,
  toLiveSeasonRows,
  toPickShares,
  toRoute,
} from "~/models/live.server";
import type { KnockoutRoute, LiveKnockoutRow, LiveLine, LiveSeasonRow, PickShare } from "~/lib/live";
import type {
  CompetitionInfo,
  CompetitionInfoRow,
  KnockoutStanding,
  KnockoutStandingColumns,
  SeasonStanding,
  SeasonStandingColumns,
} from "~/models/competition-rows.server";

/** Knockout and season leaderboard page size (spec §9). */
const LEADERBOARD_PAGE_SIZE = 10;

/** One page of a board and the player's own row (null when they are not a member). */
export interface Leaderboard<Row> {
  competition: CompetitionInfo;
  page: number;
  pageCount: number;
  mine: Row | null;
  rows: Row[];
}

interface LiveBoard {
  /** "If it ended now" for the player (decision 022), null when the match day is not being played. */
  live: LiveLine | null;
  /** The current match day's picks per team: after its deadline, to members only (none otherwise). */
  shares: PickShare[];
}

interface KnockoutLeaderboard extends Leaderboard<KnockoutStanding>, LiveBoard {
  /** The same page of the provisional leaderboard while the match day is played (empty otherwise). */
  liveRows: LiveKnockoutRow[];
  /** The route of the player asked for (else the caller's own): empty when the caller may not see it. */
  route: KnockoutRoute;
  routeOf: string;
}

interface SeasonLeaderboard extends Leaderboard<SeasonStanding>, LiveBoard {
  /** The same page of the provisional table while the match day is played (empty otherwise). */
  liveRows: LiveSeasonRow[];
  /** The champion's username: only when the competition is over (inactive) and has a rank-1 player. */
  champion: string | null;
}

const offsetOf = (page: number) => pageWindow(page, LEADERBOARD_PAGE_SIZE).offset;

/** Both boards from their first three queries' rows (competition, own row, page); null when the competition is unknown. */
function toLeaderboard<Columns, Row>(
  page: number,
  [competitionRows, mineRows, pageRows]: [readonly CompetitionInfoRow[], readonly Columns[], readonly Columns[]],
  toRow: (r: Columns) => Row,
): Leaderboard<Row> | null {
  const c = competitionRows[0];
  if (!c) return null;
  const competition = toCompetitionInfo(c);
  return {
    competition,
    page,
    pageCount: pageCount(competition.playerCount, LEADERBOARD_PAGE_SIZE),
    mine: mineRows[0] ? toRow(mineRows[0]) : null,
    rows: pageRows.map(toRow),
  };
}

/**
 * One page of a knockout leaderboard and the player's own row, in ONE transaction as the player with the
 * queries issued together. Order (game rules): still in first, alphabetical; then eliminated, latest elimination
 * first. public.knockout_leaderboard_page reads one page off the leaderboard index (fast at any page of a large
 * competition) and, being security invoker, leaves other players' picks NULL and flagged selection_hidden before
 * the deadline. Rows are read only for a knockout competition (the one-time filter skips the function
 * otherwise; the route redirects season competitions).
 */
export async function getKnockoutLeaderboard(
  db: Db,
  userId: string,
  competitionId: string,
  page: number,
  routeOf: string | null = null,
): Promise<KnockoutLeaderboard | null> {
  const offset = offsetOf(page);
  const routeUser = routeOf ?? userId;
  return db.asUser(userId, async (sql) => {
    const [competitionRows, mineRows, pageRows, liveRows, shareRows, tableRows, routeRows] = await Promise.all([
      competitionInfoQuery(sql, competitionId),
      // The player's own row: their position (range counts on the leaderboard index), then that one row.
      sql<KnockoutStandingColumns[]>`
        select ${knockoutStandingColumns(sql)}
          from public.knockout_leaderboard_position(${competitionId}, ${userId}) as pos
         cross join lateral public.knockout_leaderboard_page(${competitionId}, pos - 1, 1) as k
         where pos is not null and k.user_id = ${userId}
           and exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'knockout')`,
      sql<KnockoutStandingColumns[]>`
        select ${knockoutStandingColumns(sql)}
          from public.knockout_leaderboard_page(${competitionId}, ${offset}, ${LEADERBOARD_PAGE_SIZE}) as k
         where exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'knockout')
         order by k.position`,
      // the live match day, in the same batch (decision 022): the own line, the picks per team, the provisional
      // leaderboard's page and a player's route
      liveLinesQuery(sql, competitionId),
      pickSharesQuery(sql, competitionId),
      liveKnockoutTableQuery(sql, competitionId, offset, LEADERBOARD_PAGE_SIZE),
      knockoutRouteQuery(sql, competitionId, routeUser),
    ]);
    const board = toLeaderboard(page, [competitionRows, mineRows, pageRows], toKnockoutStanding);
    return board
      ? {
          ...board,
          live: toLiveLines(liveRows)[0] ?? null,
          shares: toPickShares(shareRows),
          liveRows: toLiveKnockoutRows(tableRows),
          route: toRoute(routeRows),
          routeOf: routeUser,
        }
      : null;
  });
}

/**
 * One page of a season leaderboard (rank, then username) and the player's own row, in ONE transaction as the
 * player with the queries issued together. public.season_leaderboard_page reads one page off the standings index;
 * ranks are stored (public.membership_ranks; ties share a rank). The top row is read separately (only for an
 * inactive competition) so the champion does not depend on the page shown.
 */
export async function getSeasonLeaderboard(db: Db, userId: string, competitionId: string, page: number): Promise<SeasonLeaderboard | null> {
  const offset = offsetOf(page);
  return db.asUser(userId, async (sql) => {
    const [competitionRows, mineRows, pageRows, topRows, liveRows, shareRows, tableRows] = await Promise.all([
      competitionInfoQuery(sql, competitionId),
      sql<SeasonStandingColumns[]>`
        select v.user_id, v.username, v.rank, v.wins, v.draws, v.losses, v.goals_for, v.goals_against, v.points
          from public.user_competition_stats_view v
         where v.competition_id = ${competitionId} and v.user_id = ${userId} and v.competition_type = 'season'`,
      sql<SeasonStandingColumns[]>`
        select s.user_id, s.username, s.rank, s.wins, s.draws, s.losses, s.goals_for, s.goals_against, s.points
          from public.season_leaderboard_page(${competitionId}, ${offset}, ${LEADERBOARD_PAGE_SIZE}) as s
         where exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'season')
         order by s.position`,
      sql<SeasonStandingColumns[]>`
        select s.user_id, s.username, s.rank, s.wins, s.draws, s.losses, s.goals_for, s.goals_against, s.points
          from public.season_leaderboard_page(${competitionId}, 0, 1) as s
         where s.rank = 1
           and exists (select 1 from public.competitions c
                        where c.id = ${competitionId} and c.type = 'season' and c.status = 'inactive')`,
      // the live match day, in the same batch (decision 022): the own line, the picks per team and the provisional
      // table's page
      liveLinesQuery(sql, competitionId),
      pickSharesQuery(sql, competitionId),
      liveSeasonTableQuery(sql, competitionId, offset, LEADERBOARD_PAGE_SIZE),
    ]);
    const board = toLeaderboard(page, [competitionRows, mineRows, pageRows], toSeasonStanding);
    if (!board) return null;
    const top = topRows[0] ? toSeasonStanding(topRows[0]) : null;
    const champion = championOf({ competition: board.competition, seasonStandings: top ? [top] : [], knockoutStandings: [] });
    return {
      ...board,
      champion,
      live: toLiveLines(liveRows)[0] ?? null,
      shares: toPickShares(shareRows),
      liveRows: toLiveSeasonRows(tableRows),
    };
  });
}
