import type {
  GetEligibleTeamsRow,
  MatchdayDeadlineResult,
  SaveTeamSelectionResult,
  SelectionOpenResult,
  UserCompetitionStatsViewRow,
} from "~/db/row-types.generated";
import type { Db, NotNull, PlayerSql } from "~/db/types";
import { currentFixturesQuery, normaliseFixtures, toIso, type FixtureRow } from "~/models/fixture-rows.server";

/** The player's own pick for the competition's current match day (no row when none). Not awaited here either. */
export function currentPickQuery(sql: PlayerSql, competitionId: string, userId: string) {
  return sql`
    select ts.selected_team as team
      from public.team_selections ts
      join public.competitions c on c.id = ts.competition_id and ts.match_day = c.current_match_day
     where ts.competition_id = ${competitionId} and ts.user_id = ${userId}`;
}

interface TeamSelectionPage {
  competition: { id: string; name: string; type: string; status: string; currentMatchDay: number };
  deadline: string | null;
  /** Picks may be made for the current match day now (public.selection_open: it has fixtures, deadline ahead). */
  selectionOpen: boolean;
  /** selectionStatus: active = this member may pick now (user_competition_stats_view.selection_status). */
  membership: { status: string; knockedOutOn: number | null; selectionStatus: string } | null;
  /** The player's picks of earlier match days in this competition (a knockout team is used once). */
  usedTeams: { team: string; matchDay: number }[];
  currentSelection: string | null;
  eligibleTeams: string[];
  fixtures: FixtureRow[];
}

/**
 * Everything the team selection page shows, in one transaction as the player (RLS applies): the
 * independent queries are issued together so they travel in one pipelined batch.
 */
export async function getTeamSelectionPage(db: Db, userId: string, competitionId: string): Promise<TeamSelectionPage | null> {
  return db.asUser(userId, async (sql) => {
    const [competitionRows, fixtureRows, membershipRows, pickRows, eligibleRows] = await Promise.all([
      // competitions' columns are NOT NULL; the two functions' results as generated.
      sql<
        {
          id: string;
          name: string;
          type: string;
          status: string;
          current_match_day: number;
          deadline: MatchdayDeadlineResult;
          selection_open: SelectionOpenResult;
        }[]
      >`
        select c.id, c.name, c.type, c.status, c.current_match_day,
               public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline,
               public.selection_open(c.league, c.season, c.current_match_day) as selection_open
          from public.competitions c
         where c.id = ${competitionId} and c.type <> 'scout'`,
      currentFixturesQuery(sql, competitionId),
      sql<
        (NotNull<
          Pick<UserCompetitionStatsViewRow, "membership_status" | "knocked_out_on" | "selection_status">,
          "membership_status" | "selection_status"
        > & { used_teams: unknown })[]
      >`
        select v.membership_status, v.knocked_out_on, v.selection_status,
               (select coalesce(json_agg(json_build_object('team', ts.selected_team, 'matchDay', ts.match_day)
                                         order by ts.match_day), '[]'::json)
                  from public.team_selections ts
                 where ts.competition_id = v.competition_id and ts.user_id = v.user_id
                   and ts.match_day < v.current_match_day) as used_teams
          from public.user_competition_stats_view v
         where v.competition_id = ${competitionId} and v.user_id = ${userId}`,
      currentPickQuery(sql, competitionId, userId),
      sql<NotNull<GetEligibleTeamsRow, "team">[]>`select e.team from public.get_eligible_teams(${competitionId}, ${userId}) e`,
    ]);
    const c = competitionRows[0];
    if (!c) return null;
    const deadline = toIso(c.deadline);
    return {
      competition: {
        id: c.id,
        name: c.name,
        type: c.type,
        status: c.status,
        currentMatchDay: c.current_match_day,
      },
      deadline,
      selectionOpen: c.selection_open === true,
      membership: membershipRows[0]
        ? {
            status: membershipRows[0].membership_status,
            knockedOutOn: membershipRows[0].knocked_out_on,
            selectionStatus: membershipRows[0].selection_status,
          }
        : null,
      usedTeams: parseUsedTeams(membershipRows[0]?.used_teams),
      currentSelection: (pickRows[0]?.team as string | undefined) ?? null,
      eligibleTeams: eligibleRows.map((r) => r.team),
      fixtures: normaliseFixtures(fixtureRows),
    };
  });
}

/** json_agg's answer (postgres.js parses json; a string when it does not). */
function parseUsedTeams(value: unknown): { team: string; matchDay: number }[] {
  const rows: unknown = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(rows)) return [];
  const used: { team: string; matchDay: number }[] = [];
  for (const row of rows as unknown[]) {
    const r = row as { team?: unknown; matchDay?: unknown } | null;
    if (r && typeof r.team === "string" && typeof r.matchDay === "number") used.push({ team: r.team, matchDay: r.matchDay });
  }
  return used;
}

export type SaveSelectionCode = "saved" | "not_found" | "not_registered" | "eliminated" | "selection_closed" | "not_eligible";

/** Saves (inserts or replaces) the player's pick for the current match day; the database applies every rule. */
export async function saveTeamSelection(db: Db, userId: string, competitionId: string, team: string): Promise<SaveSelectionCode> {
  const rows = await db.asUser(
    userId,
    (sql) => sql<{ code: SaveTeamSelectionResult }[]>`select public.save_team_selection(${competitionId}, ${team}) as code`,
  );
  return (rows[0]?.code ?? "not_found") as SaveSelectionCode;
}
