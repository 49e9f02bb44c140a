import postgres from "postgres";
import type { ManageSelectionsRow, SetPlayerSelectionResult, UserCompetitionStatsViewRow } from "~/db/row-types.generated";
import type { Db, NotNull } from "~/db/types";
import { pageWindow } from "~/lib/paging";
import {
  competitionInfoQuery,
  toCompetitionInfo,
  livesLeftOf,
  toKnockoutStanding,
  knockoutStandingColumns,
  toSeasonStanding,
  type CompetitionInfo,
  type KnockoutStanding,
  type KnockoutStandingColumns,
  type SeasonStanding,
  type SeasonStandingColumns,
} from "~/models/competition-rows.server";
import { currentFixturesQuery, FIXTURE_COLUMNS, normaliseFixtures, toIso, type FixtureRow } from "~/models/fixture-rows.server";
import { currentPickQuery } from "~/models/selections.server";
import { liveFixturesQuery, liveLinesQuery, pickSharesQuery, toLiveFixtures, toLiveLines, toPickShares } from "~/models/live.server";
import type { LiveFixture, LiveLine, PickShare } from "~/lib/live";

export const PLAYERS_PAGE_SIZE = 10;
export const STANDINGS_SIZE = 10;

export interface PlayerRow {
  userId: string;
  username: string;
  membershipStatus: string;
  joinedMatchDay: number | null;
  knockedOutOn: number | null;
  currentSelection: string | null;
  selectionHidden: boolean;
  hasSelection: boolean;
  /** The server picked at the deadline ("Auto-picked"; Manage Selections). */
  autoPicked: boolean;
}

export interface MySelection {
  matchDay: number;
  team: string;
  createdAt: string | null;
  fixture: FixtureRow;
  /** The server made this pick at the deadline ("Auto-picked"). */
  autoPicked: boolean;
}

export interface Membership {
  status: string;
  knockedOutOn: number | null;
  joinedMatchDay: number;
  /** active = may pick now (Select / Edit Team); eliminated; closed (user_competition_stats_view.selection_status). */
  selectionStatus: string;
  /** The player's season rank and points (rank null for a knockout or before any result). */
  rank: number | null;
  points: number;
  /** Knockout lives left when the competition has more than one life, else null. */
  livesLeft: number | null;
}

export interface CompetitionDetail {
  competition: CompetitionInfo;
  membership: Membership | null;
  currentSelection: string | null;
  mySelections: MySelection[];
  players: PlayerRow[];
  seasonStandings: SeasonStanding[];
  knockoutStandings: KnockoutStanding[];
  fixtures: FixtureRow[];
  /**
   * Every member and whether they picked (public.manage_selections): only for the creator and admins, else
   * empty. The team itself only after the deadline (selectionHidden before it).
   */
  manageRows: PlayerRow[];
  /** The live match day (decision 022): the player's provisional line, the fixtures in play, the revealed picks. */
  live: { line: LiveLine | null; fixtures: LiveFixture[]; shares: PickShare[] };
}

/** Manage Selections is the competition creator's and admins' (set_player_selection decides again in SQL). */
export function canManageSelections(user: { id: string; role: string }, competition: Pick<CompetitionInfo, "createdBy">): boolean {
  return user.role === "admin" || (competition.createdBy !== null && competition.createdBy === user.id);
}

/** A registered player as the stats view lists them (user_id is the membership's key). */
type PlayerColumns = NotNull<
  Pick<UserCompetitionStatsViewRow, "user_id" | "username" | "membership_status" | "joined_match_day" | "knocked_out_on">,
  "user_id"
>;
/** A row of public.manage_selections, with whether the pick is hidden (picked, team not shown yet). */
type ManageColumns = NotNull<ManageSelectionsRow, "user_id"> & { selection_hidden: boolean | null };

function playerRow(r: PlayerColumns | ManageColumns): PlayerRow {
  return {
    userId: r.user_id,
    username: r.username ?? "",
    membershipStatus: r.membership_status ?? "active",
    joinedMatchDay: "joined_match_day" in r ? r.joined_match_day : null,
    knockedOutOn: "knocked_out_on" in r ? r.knocked_out_on : null,
    currentSelection: "current_selection" in r ? r.current_selection : null,
    selectionHidden: "selection_hidden" in r && r.selection_hidden === true,
    hasSelection: "has_selection" in r && r.has_selection === true,
    autoPicked: "auto_picked" in r && r.auto_picked === true,
  };
}

/**
 * The competition detail page in ONE transaction as the player: every query below is independent (each
 * joins the competition row itself) and they are issued together, so the whole page costs BEGIN, one
 * pipelined batch and COMMIT, whatever the number of players. Other players' current picks come only through
 * RLS-guarded tables and security_invoker views, so they stay hidden before the deadline.
 */
export async function getCompetitionDetail(
  db: Db,
  me: string,
  competitionId: string,
  playersPage: number,
): Promise<CompetitionDetail | null> {
  const { offset } = pageWindow(playersPage, PLAYERS_PAGE_SIZE);
  return db.asUser(me, async (sql) => {
    const [
      competitionRows,
      membershipRows,
      pickRows,
      historyRows,
      playerRows,
      seasonRows,
      knockoutRows,
      fixtureRows,
      manageRows,
      liveLineRows,
      liveFixtureRows,
      shareRows,
    ] = await Promise.all([
      competitionInfoQuery(sql, competitionId),
      sql<
        NotNull<
          Pick<
            UserCompetitionStatsViewRow,
            "membership_status" | "knocked_out_on" | "joined_match_day" | "selection_status" | "rank" | "points" | "lives" | "lives_left"
          >,
          "membership_status" | "selection_status"
        >[]
      >`
          select v.membership_status, v.knocked_out_on, v.joined_match_day, v.selection_status, v.rank, v.points,
                 v.lives, v.lives_left
            from public.user_competition_stats_view v
           where v.competition_id = ${competitionId} and v.user_id = ${me}`,
      currentPickQuery(sql, competitionId, me),
      // team_selections' match_day, selected_team and created_at are NOT NULL; the fixture columns as FIXTURE_COLUMNS.
      sql.unsafe<({ matchDay: number; team: string; createdAt: Date; autoPicked: boolean } & Record<string, unknown>)[]>(
        `select ts.match_day as "matchDay", ts.selected_team as team, ts.created_at as "createdAt",
                ts.auto_picked as "autoPicked", ${FIXTURE_COLUMNS}
             from public.team_selections ts
             join public.fixtures f on f.id = ts.fixture_id
            where ts.competition_id = $1 and ts.user_id = $2
            order by ts.created_at, ts.match_day`,
        [competitionId, me],
      ),
      sql<PlayerColumns[]>`
          select v.user_id, v.username, v.membership_status, v.joined_match_day, v.knocked_out_on
            from public.user_competition_stats_view v
           where v.competition_id = ${competitionId}
           order by lower(v.username), v.user_id
           limit ${PLAYERS_PAGE_SIZE} offset ${offset}`,
      sql<SeasonStandingColumns[]>`
          select v.user_id, v.username, v.rank, v.wins, v.draws, v.losses, v.goals_for, v.goals_against, v.points
            from public.user_competition_stats_view v
           where v.competition_id = ${competitionId} and v.competition_type = 'season'
           order by v.rank nulls last, lower(v.username), v.user_id
           limit ${STANDINGS_SIZE}`,
      sql<KnockoutStandingColumns[]>`
          select ${knockoutStandingColumns(sql)}
            from public.competitions c
           cross join lateral public.knockout_leaderboard_page(c.id, 0, ${STANDINGS_SIZE}) as k
           where c.id = ${competitionId} and c.type = 'knockout'
           order by k.position`,
      currentFixturesQuery(sql, competitionId),
      // Rows only for the creator and admins; before the deadline "picked or not", never the team.
      sql<ManageColumns[]>`
          select m.user_id, m.username, m.membership_status, m.has_selection, m.current_selection, m.auto_picked,
                 (m.has_selection and m.current_selection is null) as selection_hidden
            from public.manage_selections(${competitionId}) m
           order by lower(m.username), m.user_id`,
      // the live match day, in the same batch (decision 022)
      liveLinesQuery(sql, competitionId),
      liveFixturesQuery(sql, competitionId),
      pickSharesQuery(sql, competitionId),
    ]);

    const c = competitionRows[0];
    if (!c) return null;
    const competition = toCompetitionInfo(c);
    const m = membershipRows[0];
    return {
      competition,
      membership: m
        ? {
            status: m.membership_status,
            knockedOutOn: m.knocked_out_on,
            joinedMatchDay: m.joined_match_day ?? 0,
            selectionStatus: m.selection_status,
            rank: m.rank ?? null,
            points: m.points ?? 0,
            livesLeft: livesLeftOf(m.lives, m.lives_left),
          }
        : null,
      currentSelection: (pickRows[0]?.team as string | undefined) ?? null,
      mySelections: historyRows.map((r) => ({
        matchDay: r.matchDay,
        team: r.team,
        createdAt: toIso(r.createdAt),
        fixture: normaliseFixtures([r])[0],
        autoPicked: r.autoPicked === true,
      })),
      players: playerRows.map(playerRow),
      seasonStandings: seasonRows.map(toSeasonStanding),
      knockoutStandings: knockoutRows.map(toKnockoutStanding),
      fixtures: normaliseFixtures(fixtureRows),
      manageRows: manageRows.map(playerRow),
      live: { line: toLiveLines(liveLineRows)[0] ?? null, fixtures: toLiveFixtures(liveFixtureRows), shares: toPickShares(shareRows) },
    };
  });
}

/**
 * The champion of an inactive competition (game rules): season = the top-ranked player; knockout = the stored
 * knockout_winner, else the first player whose status is Winner or Still In, else the first ranked. Takes only the
 * parts it reads so the season leaderboard can ask with its top row alone.
 */
export function championOf(detail: Pick<CompetitionDetail, "competition" | "seasonStandings" | "knockoutStandings">): string | null {
  const { competition } = detail;
  if (competition.status !== "inactive") return null;
  if (competition.type === "season") return detail.seasonStandings[0]?.username ?? null;
  if (competition.knockoutWinnerUsername) return competition.knockoutWinnerUsername;
  const standing =
    detail.knockoutStandings.find((s) => s.status === "Winner") ??
    detail.knockoutStandings.find((s) => s.status === "Still In" || s.status === "active") ??
    detail.knockoutStandings[0];
  return standing?.username ?? null;
}

export type SetSelectionCode = "saved" | "not_found" | "forbidden" | "not_registered" | "no_fixture" | "already_picked";

/** The creator's (or an admin's) pick for a player on the current match day; the database checks who may do it. */
export async function setPlayerSelection(
  db: Db,
  actorId: string,
  competitionId: string,
  playerId: string,
  team: string,
): Promise<SetSelectionCode> {
  try {
    const rows = await db.asUser(
      actorId,
      (sql) =>
        sql<{ code: SetPlayerSelectionResult }[]>`select public.set_player_selection(${competitionId}, ${playerId}, ${team}) as code`,
    );
    return (rows[0]?.code ?? "not_found") as SetSelectionCode;
  } catch (error) {
    // The pick's own check (team must play that match day) raises check_violation.
    if (error instanceof postgres.PostgresError && error.code === "23514") return "no_fixture";
    throw error;
  }
}
