import type {
  KnockoutLeaderboardPageRow,
  MatchdayDeadlinePassedResult,
  MatchdayDeadlineResult,
  RegistrationStateResult,
  SelectionOpenResult,
  UserCompetitionStatsViewRow,
} from "~/db/row-types.generated";
import type { NotNull, PlayerSql } from "~/db/types";
import { DEFAULT_PRIZE } from "~/lib/competition-options";
import { rulesFromRow, type CompetitionRules, type CompetitionRulesColumns } from "~/lib/competition-rules";
import { toIso } from "~/models/fixture-rows.server";

/**
 * The rows the competition detail page and both leaderboards read alike: the competition header and the season
 * and knockout standing rows. One home, so the pages cannot drift apart in which columns they read (never
 * registration_key) or in how they turn database values into numbers.
 */

export interface CompetitionInfo {
  id: string;
  name: string;
  type: "season" | "knockout";
  league: string;
  season: string;
  status: string;
  /** open | closed | completed as the rule stands now (public.registration_state), not the stored status. */
  registrationStatus: string;
  visibility: string;
  prize: string;
  currentMatchDay: number;
  startMatchDay: number;
  playerCount: number;
  createdBy: string | null;
  createdByUsername: string | null;
  knockoutWinnerUsername: string | null;
  deadline: string | null;
  /** Picks may be made for the current match day now (public.selection_open: fixtures, deadline ahead). */
  selectionOpen: boolean;
  /** The organiser's rules (decision 028): the Rules panel says them with rulesLines(type, rules). */
  rules: CompetitionRules;
  /** The start match day's deadline has passed: the rules are fixed (update_competition_rules refuses). */
  rulesFixed: boolean;
}

/** A member's season figures, as the stats view has them (standings, dashboard rows). */
export interface SeasonStats {
  rank: number | null;
  wins: number;
  draws: number;
  losses: number;
  goalsFor: number;
  goalsAgainst: number;
  points: number;
}

export interface SeasonStanding extends SeasonStats {
  userId: string;
  username: string;
}

export interface KnockoutStanding {
  userId: string;
  username: string;
  status: string;
  knockedOutOn: number | null;
  currentSelection: string | null;
  selectionHidden: boolean;
  /** Lives left, when the competition has more than one life (else null: nothing to show). */
  livesLeft: number | null;
  /** The current pick was made by the server at the deadline ("Auto-picked"). */
  autoPicked: boolean;
}

/** Lives left as the pages show them: only when the competition has more than one life. */
export function livesLeftOf(lives: number | null | undefined, livesLeft: number | null | undefined): number | null {
  return lives !== null && lives !== undefined && lives > 1 && livesLeft !== null && livesLeft !== undefined ? livesLeft : null;
}

/** The columns of public.competitions that competitionInfoQuery reads (all NOT NULL but created_by). */
interface CompetitionColumns extends CompetitionRulesColumns {
  id: string;
  name: string;
  type: string;
  league: string;
  season: string;
  status: string;
  visibility: string;
  prize: string;
  current_match_day: number;
  start_match_day: number;
  player_count: number;
  created_by: string | null;
}

/** A row of competitionInfoQuery: the table's columns, two usernames (left joins) and three functions' results. */
export type CompetitionInfoRow = CompetitionColumns & {
  registration_status: RegistrationStateResult;
  created_by_username: string | null;
  knockout_winner_username: string | null;
  deadline: MatchdayDeadlineResult;
  selection_open: SelectionOpenResult;
  rules_fixed: MatchdayDeadlinePassedResult;
};

/**
 * Registration as the rule stands now (open / closed / completed), not the stored registration_status, which
 * lags until the scheduler closes it: what the cards show and the Registration Status filter narrows. Reads the
 * competitions row as `c`; the dashboard and the competition page read it the same way.
 */
export const registrationState = (sql: PlayerSql) =>
  // the rule applied to the row in hand (inlined by the planner), not a look-up per row by id (decision 023)
  sql`public.registration_state_of(c.registration_status, c.status, c.type, c.league, c.season, c.start_match_day)`;

/** The rules columns of the competitions row `c` (rulesFromRow turns them into CompetitionRules). */
export const rulesColumns = (sql: PlayerSql) =>
  sql`c.lives, c.draw_rule, c.missed_pick_rule, c.everyone_out_rule, c.win_points, c.draw_points, c.loss_points, c.joker`;

/**
 * The competition row with explicit columns (players may not read registration_key), its creator's and knockout
 * winner's usernames, its registration state now, the current match day's deadline and whether picks are open
 * for it, its rules and whether they are fixed yet. Not awaited here: callers issue it together with their other queries so the transaction pipelines them.
 */
export function competitionInfoQuery(sql: PlayerSql, competitionId: string) {
  return sql<CompetitionInfoRow[]>`
    select c.id, c.name, c.type, c.league, c.season, c.status, ${registrationState(sql)} as registration_status,
           c.visibility, c.prize, c.current_match_day, c.start_match_day, c.player_count, c.created_by,
           creator.username as created_by_username, winner.username as knockout_winner_username,
           public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline,
           public.selection_open(c.league, c.season, c.current_match_day) as selection_open,
           ${rulesColumns(sql)}, public.matchday_deadline_passed(c.league, c.season, c.start_match_day) as rules_fixed
      from public.competitions c
      left join public.player_names creator on creator.id = c.created_by
      left join public.player_names winner on winner.id = c.knockout_winner
     where c.id = ${competitionId} and c.type in ('season', 'knockout')`;
}

export function toCompetitionInfo(c: CompetitionInfoRow): CompetitionInfo {
  return {
    id: c.id,
    name: c.name,
    type: c.type === "season" ? "season" : "knockout",
    league: c.league,
    season: c.season,
    status: c.status,
    registrationStatus: c.registration_status ?? "",
    visibility: c.visibility,
    prize: c.prize || DEFAULT_PRIZE,
    currentMatchDay: c.current_match_day,
    startMatchDay: c.start_match_day,
    playerCount: c.player_count,
    createdBy: c.created_by,
    createdByUsername: c.created_by_username,
    knockoutWinnerUsername: c.knockout_winner_username,
    deadline: toIso(c.deadline),
    selectionOpen: c.selection_open === true,
    rules: rulesFromRow(c),
    rulesFixed: c.rules_fixed === true,
  };
}

/**
 * The season columns of user_competition_stats_view and public.season_leaderboard_page (same names and types);
 * user_id is the membership's key.
 */
export type SeasonStandingColumns = NotNull<
  Pick<
    UserCompetitionStatsViewRow,
    "user_id" | "username" | "rank" | "wins" | "draws" | "losses" | "goals_for" | "goals_against" | "points"
  >,
  "user_id"
>;

/** The knockout columns of public.knockout_leaderboard_page, user_username selected as username. */
export type KnockoutStandingColumns = NotNull<
  Pick<
    KnockoutLeaderboardPageRow,
    "user_id" | "status" | "knocked_out_on" | "current_selection" | "selection_hidden" | "lives" | "lives_left" | "auto_picked"
  >,
  "user_id"
> & { username: KnockoutLeaderboardPageRow["user_username"] };

/** What a knockout standing reads of public.knockout_leaderboard_page (the page function's row as `k`). */
export const knockoutStandingColumns = (sql: PlayerSql) =>
  sql`k.user_id, k.user_username as username, k.status, k.knocked_out_on, k.current_selection, k.selection_hidden,
      k.lives, k.lives_left, k.auto_picked`;

/** A row selecting user_id, username, rank, wins, draws, losses, goals_for, goals_against, points. */
export function toSeasonStanding(r: SeasonStandingColumns): SeasonStanding {
  return {
    userId: r.user_id,
    username: r.username ?? "",
    rank: r.rank,
    wins: r.wins ?? 0,
    draws: r.draws ?? 0,
    losses: r.losses ?? 0,
    goalsFor: r.goals_for ?? 0,
    goalsAgainst: r.goals_against ?? 0,
    points: r.points ?? 0,
  };
}

/** A row selecting knockoutStandingColumns. */
export function toKnockoutStanding(r: KnockoutStandingColumns): KnockoutStanding {
  return {
    userId: r.user_id,
    username: r.username ?? "",
    status: r.status ?? "",
    knockedOutOn: r.knocked_out_on,
    currentSelection: r.current_selection,
    selectionHidden: r.selection_hidden === true,
    livesLeft: livesLeftOf(r.lives, r.lives_left),
    autoPicked: r.auto_picked === true,
  };
}
