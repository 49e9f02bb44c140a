import type { Db, Tx } from "~/db.server";
import {
  championOf,
  type CompetitionInfo,
  type KnockoutStanding,
  type SeasonStanding,
} from "~/models/competition-detail.server";
import { toIso } from "~/models/selections.server";

/** Knockout and season leaderboard page size (spec §9). */
export const LEADERBOARD_PAGE_SIZE = 10;

export type { KnockoutStanding, SeasonStanding };

interface LeaderboardBase {
  competition: CompetitionInfo;
  page: number;
  pageCount: number;
}

export interface KnockoutLeaderboard extends LeaderboardBase {
  mine: KnockoutStanding | null;
  rows: KnockoutStanding[];
}

export interface SeasonLeaderboard extends LeaderboardBase {
  mine: SeasonStanding | null;
  rows: SeasonStanding[];
  /** The champion's username: only when the competition is over (inactive) and has a rank-1 player. */
  champion: string | null;
}

const num = (v: unknown) => (v == null ? 0 : Number(v));
const numOrNull = (v: unknown) => (v == null ? null : Number(v));

function competitionInfo(c: Record<string, unknown>): CompetitionInfo {
  return {
    id: String(c.id),
    name: String(c.name),
    type: c.type === "season" ? "season" : "knockout",
    league: String(c.league),
    season: String(c.season),
    status: String(c.status),
    registrationStatus: String(c.registrationStatus),
    visibility: String(c.visibility),
    prize: (c.prize as string | null) || "Bragging Rights!",
    currentMatchDay: num(c.currentMatchDay),
    startMatchDay: num(c.startMatchDay),
    playerCount: num(c.playerCount),
    createdBy: (c.createdBy as string | null) ?? null,
    createdByUsername: (c.createdByUsername as string | null) ?? null,
    knockoutWinnerUsername: (c.knockoutWinnerUsername as string | null) ?? null,
    deadline: toIso(c.deadline),
  };
}

function knockoutRow(r: Record<string, unknown>): KnockoutStanding {
  return {
    userId: String(r.user_id),
    username: String(r.username ?? ""),
    status: String(r.status ?? ""),
    knockedOutOn: numOrNull(r.knocked_out_on),
    currentSelection: (r.current_selection as string | null) ?? null,
    selectionHidden: Boolean(r.selection_hidden),
  };
}

function seasonRow(r: Record<string, unknown>): SeasonStanding {
  return {
    userId: String(r.user_id),
    username: String(r.username ?? ""),
    rank: numOrNull(r.rank),
    wins: num(r.wins),
    draws: num(r.draws),
    losses: num(r.losses),
    goalsFor: num(r.goals_for),
    goalsAgainst: num(r.goals_against),
    points: num(r.points),
  };
}

const pageCountOf = (playerCount: number) => Math.max(1, Math.ceil(playerCount / LEADERBOARD_PAGE_SIZE));
const offsetOf = (page: number) => (Math.max(1, page) - 1) * LEADERBOARD_PAGE_SIZE;

/**
 * The competition row (explicit columns: never registration_key), shaped like the competition detail's so the
 * champion rule has one home (championOf).
 */
function competitionQuery(tx: Tx, competitionId: string) {
  return tx`
    select c.id, c.name, c.type, c.league, c.season, c.status, c.registration_status as "registrationStatus",
           c.visibility, c.prize, c.current_match_day as "currentMatchDay", c.start_match_day as "startMatchDay",
           c.player_count as "playerCount", c.created_by as "createdBy",
           creator.username as "createdByUsername", winner.username as "knockoutWinnerUsername",
           public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline
      from public.competitions c
      left join public.player_names creator on creator.id = c.created_by
      left join public.player_names winner on winner.id = c.knockout_winner
     where c.id = ${competitionId} and c.type in ('season', 'knockout')`;
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
): Promise<KnockoutLeaderboard | null> {
  const offset = offsetOf(page);
  return db.asUser(userId, async (tx) => {
    const [competitionRows, mineRows, pageRows] = await Promise.all([
      competitionQuery(tx, competitionId),
      // The player's own row: their position (range counts on the leaderboard index), then that one row.
      tx`
        select k.user_id, k.user_username as username, k.status, k.knocked_out_on, k.current_selection, k.selection_hidden
          from public.knockout_leaderboard_position(${competitionId}, ${userId}) as pos
         cross join lateral public.knockout_leaderboard_page(${competitionId}, pos - 1, 1) as k
         where pos is not null and k.user_id = ${userId}
           and exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'knockout')`,
      tx`
        select k.user_id, k.user_username as username, k.status, k.knocked_out_on, k.current_selection, k.selection_hidden
          from public.knockout_leaderboard_page(${competitionId}, ${offset}, ${LEADERBOARD_PAGE_SIZE}) as k
         where exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'knockout')
         order by k.position`,
    ]);
    const c = competitionRows[0];
    if (!c) return null;
    const competition = competitionInfo(c);
    return {
      competition,
      page,
      pageCount: pageCountOf(competition.playerCount),
      mine: mineRows[0] ? knockoutRow(mineRows[0]) : null,
      rows: pageRows.map(knockoutRow),
    };
  });
}

/**
 * One page of a season leaderboard (rank, then username) and the player's own row, in ONE transaction as the
 * player with the queries issued together. public.season_leaderboard_page reads one page off the standings index;
 * ranks are stored (public.membership_ranks; ties share a rank). The top row is read separately (only for an
 * inactive competition) so the champion does not depend on the page shown.
 */
export async function getSeasonLeaderboard(
  db: Db,
  userId: string,
  competitionId: string,
  page: number,
): Promise<SeasonLeaderboard | null> {
  const offset = offsetOf(page);
  return db.asUser(userId, async (tx) => {
    const [competitionRows, mineRows, pageRows, topRows] = await Promise.all([
      competitionQuery(tx, competitionId),
      tx`
        select v.user_id, v.username, v.rank, v.wins, v.draws, v.losses, v.goals_for, v.goals_against, v.points
          from public.user_competition_stats_view v
         where v.competition_id = ${competitionId} and v.user_id = ${userId} and v.competition_type = 'season'`,
      tx`
        select s.user_id, s.username, s.rank, s.wins, s.draws, s.losses, s.goals_for, s.goals_against, s.points
          from public.season_leaderboard_page(${competitionId}, ${offset}, ${LEADERBOARD_PAGE_SIZE}) as s
         where exists (select 1 from public.competitions c where c.id = ${competitionId} and c.type = 'season')
         order by s.position`,
      tx`
        select s.user_id, s.username, s.rank, s.wins, s.draws, s.losses, s.goals_for, s.goals_against, s.points
          from public.season_leaderboard_page(${competitionId}, 0, 1) as s
         where s.rank = 1
           and exists (select 1 from public.competitions c
                        where c.id = ${competitionId} and c.type = 'season' and c.status = 'inactive')`,
    ]);
    const c = competitionRows[0];
    if (!c) return null;
    const competition = competitionInfo(c);
    const top = topRows[0] ? seasonRow(topRows[0]) : null;
    return {
      competition,
      page,
      pageCount: pageCountOf(competition.playerCount),
      mine: mineRows[0] ? seasonRow(mineRows[0]) : null,
      rows: pageRows.map(seasonRow),
      champion: championOf({
        competition,
        seasonStandings: top ? [top] : [],
        knockoutStandings: [],
        closed: false,
        membership: null,
        currentSelection: null,
        mySelections: [],
        players: [],
        fixtures: [],
        manageRows: [],
        canManage: false,
      }),
    };
  });
}
