import type { PlayerSql } from "~/db/types";
import { DEFAULT_PRIZE } from "~/lib/competition-options";
import { toIso } from "~/models/fixture-rows.server";

/**
 * The rows the competition detail page and both leaderboards read alike: the competition header and the season
 * and knockout standing rows. One home, so the pages cannot drift apart in which columns they read (never
 * registration_key) or in how they turn database values into numbers.
 */

/** postgres.js returns bigint and numeric columns as strings, and missing values as null. */
export const numberOrZero = (v: unknown) => (v == null ? 0 : Number(v));
export const numberOrNull = (v: unknown) => (v == null ? null : Number(v));

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
}

/**
 * The competition row with explicit columns (players may not read registration_key), its creator's and knockout
 * winner's usernames, its registration state now, the current match day's deadline and whether picks are open
 * for it. Not awaited here: callers issue it together with their other queries so the transaction pipelines them.
 */
export function competitionInfoQuery(sql: PlayerSql, competitionId: string) {
  return sql`
    select c.id, c.name, c.type, c.league, c.season, c.status, public.registration_state(c.id) as "registrationStatus",
           c.visibility, c.prize, c.current_match_day as "currentMatchDay", c.start_match_day as "startMatchDay",
           c.player_count as "playerCount", c.created_by as "createdBy",
           creator.username as "createdByUsername", winner.username as "knockoutWinnerUsername",
           public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline,
           public.selection_open(c.league, c.season, c.current_match_day) as "selectionOpen"
      from public.competitions c
      left join public.player_names creator on creator.id = c.created_by
      left join public.player_names winner on winner.id = c.knockout_winner
     where c.id = ${competitionId} and c.type in ('season', 'knockout')`;
}

export function toCompetitionInfo(c: Record<string, unknown>): CompetitionInfo {
  return {
    id: String(c.id),
    name: String(c.name),
    type: c.type === "season" ? "season" : "knockout",
    league: String(c.league),
    season: String(c.season),
    status: String(c.status),
    registrationStatus: String(c.registrationStatus),
    visibility: String(c.visibility),
    prize: (c.prize as string | null) || DEFAULT_PRIZE,
    currentMatchDay: numberOrZero(c.currentMatchDay),
    startMatchDay: numberOrZero(c.startMatchDay),
    playerCount: numberOrZero(c.playerCount),
    createdBy: (c.createdBy as string | null) ?? null,
    createdByUsername: (c.createdByUsername as string | null) ?? null,
    knockoutWinnerUsername: (c.knockoutWinnerUsername as string | null) ?? null,
    deadline: toIso(c.deadline),
    selectionOpen: Boolean(c.selectionOpen),
  };
}

/** A row selecting user_id, username, rank, wins, draws, losses, goals_for, goals_against, points. */
export function toSeasonStanding(r: Record<string, unknown>): SeasonStanding {
  return {
    userId: String(r.user_id),
    username: (r.username as string | null) ?? "",
    rank: numberOrNull(r.rank),
    wins: numberOrZero(r.wins),
    draws: numberOrZero(r.draws),
    losses: numberOrZero(r.losses),
    goalsFor: numberOrZero(r.goals_for),
    goalsAgainst: numberOrZero(r.goals_against),
    points: numberOrZero(r.points),
  };
}

/** A row selecting user_id, username, status, knocked_out_on, current_selection, selection_hidden. */
export function toKnockoutStanding(r: Record<string, unknown>): KnockoutStanding {
  return {
    userId: String(r.user_id),
    username: (r.username as string | null) ?? "",
    status: (r.status as string | null) ?? "",
    knockedOutOn: numberOrNull(r.knocked_out_on),
    currentSelection: (r.current_selection as string | null) ?? null,
    selectionHidden: Boolean(r.selection_hidden),
  };
}
