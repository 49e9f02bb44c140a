import type { PlayerSeasonRecordsRow, PlayerStatsRow, PlayerTopTeamsRow } from "~/db/row-types.generated";
import type { Db } from "~/db/types";

/*
 * A player's stats (/stats, rules file "History and seasons"): what public.player_stats, player_season_records and
 * player_top_teams (supabase/schemas/97_history.sql) say for the signed-in player. The numbers are SQL's; this
 * module only names them.
 */

/** How many of the most picked teams the page lists. */
export const TOP_TEAMS = 5;

export interface PickRecord {
  won: number;
  drawn: number;
  lost: number;
}

export interface SeasonRecord extends PickRecord {
  season: string;
  competitions: number;
}

export interface PlayerStats {
  played: number;
  won: number;
  /** The best final position over ended competitions; null before one ended. */
  bestFinish: number | null;
  /** The most match days survived in one knockout; null without a knockout. */
  longestKnockoutRun: number | null;
  picks: PickRecord;
  scoutPoints: number;
  scoutExact: number;
  seasons: SeasonRecord[];
  topTeams: { team: string; picks: number }[];
}

const count = (n: number | null) => n ?? 0;

/** The three reads in the request's one transaction, sent together with the session check (one round trip). */
export function getPlayerStats(db: Db, userId: string): Promise<PlayerStats> {
  return db.asUser(userId, async (sql) => {
    const [summaryRows, seasonRows, teamRows] = await Promise.all([
      sql<PlayerStatsRow[]>`
        select s.played, s.won, s.best_finish, s.longest_knockout_run, s.picks_won, s.picks_drawn, s.picks_lost,
               s.scout_points, s.scout_exact
          from public.player_stats() s`,
      sql<PlayerSeasonRecordsRow[]>`select r.season, r.competitions, r.won, r.drawn, r.lost from public.player_season_records() r`,
      sql<PlayerTopTeamsRow[]>`select t.team, t.picks from public.player_top_teams(${TOP_TEAMS}) t`,
    ]);
    const s = summaryRows[0];
    return {
      played: count(s?.played ?? null),
      won: count(s?.won ?? null),
      bestFinish: s?.best_finish ?? null,
      longestKnockoutRun: s?.longest_knockout_run ?? null,
      picks: { won: count(s?.picks_won ?? null), drawn: count(s?.picks_drawn ?? null), lost: count(s?.picks_lost ?? null) },
      scoutPoints: count(s?.scout_points ?? null),
      scoutExact: count(s?.scout_exact ?? null),
      seasons: seasonRows.map((r) => ({
        season: r.season ?? "",
        competitions: count(r.competitions),
        won: count(r.won),
        drawn: count(r.drawn),
        lost: count(r.lost),
      })),
      topTeams: teamRows.map((r) => ({ team: r.team ?? "", picks: count(r.picks) })),
    };
  });
}
