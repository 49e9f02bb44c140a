import type {
  ComingMatchDaysRow,
  GetEligibleTeamsRow,
  MatchdayDeadlineResult,
  PlayJokerResult,
  SaveTeamSelectionResult,
  SelectionOpenResult,
  UserCompetitionStatsViewRow,
} from "~/db/row-types.generated";
import type { Db, NotNull, PlayerSql } from "~/db/types";
import { rulesFromRow, type CompetitionRules, type CompetitionRulesColumns } from "~/lib/competition-rules";
import { livesLeftOf, rulesColumns } from "~/models/competition-rows.server";
import { FIXTURE_COLUMNS, normaliseFixtures, toIso, type FixtureRow } from "~/models/fixture-rows.server";

/** The player's own pick for the competition's current match day (no row when none). Not awaited here either. */
export function currentPickQuery(sql: PlayerSql, competitionId: string, userId: string) {
  return sql`
    select ts.selected_team as team
      from public.team_selections ts
      join public.competitions c on c.id = ts.competition_id and ts.match_day = c.current_match_day
     where ts.competition_id = ${competitionId} and ts.user_id = ${userId}`;
}

/**
 * The match day the Team Selection page shows: the one asked for (`?md=N`) when it is one of the player's coming
 * match days (public.coming_match_days, the rule's one home: from the current match day to the last, with fixtures,
 * deadline ahead), else the current one. A scalar expression each of the page's statements reads, so they all
 * show the same match day and still travel in one batch.
 */
const shownMatchDay = (sql: PlayerSql, competitionId: string, matchDay: number | null) => sql`
  (select case when exists (select 1 from public.coming_match_days(c.id) m where m.match_day = ${matchDay}::int)
               then ${matchDay}::int else c.current_match_day end
     from public.competitions c where c.id = ${competitionId})`;

/** A coming match day with the player's pick or plan for it ("No pick yet" when team is null) and its deadline. */
export interface ComingMatchDay {
  matchDay: number;
  deadline: string | null;
  team: string | null;
  autoPicked: boolean;
  /** The player's joker is on this match day (season, joker on). */
  joker: boolean;
}

interface TeamSelectionPage {
  competition: { id: string; name: string; type: string; status: string; currentMatchDay: number };
  /** The match day shown (and saved to): `?md=N` when it is a coming one, else the current match day. */
  matchDay: number;
  /** The shown match day's deadline. */
  deadline: string | null;
  /** Picks may be made for the shown match day now (public.selection_open: it has fixtures, deadline ahead). */
  selectionOpen: boolean;
  /** selectionStatus: active = this member may pick for the current match day now (the stats view's selection_status). */
  membership: { status: string; knockedOutOn: number | null; selectionStatus: string; livesLeft: number | null } | null;
  /** The player's picks and plans of the other match days (a knockout team is used once); planned = a later match day. */
  usedTeams: { team: string; matchDay: number; planned: boolean }[];
  /** The player's pick (or plan) for the shown match day. */
  currentSelection: string | null;
  /** That pick was made by the server at the deadline ("Auto-picked"). */
  currentAutoPicked: boolean;
  /** The teams the player may pick for the shown match day (public.get_eligible_teams). */
  eligibleTeams: string[];
  /** The shown match day's fixtures. */
  fixtures: FixtureRow[];
  rules: CompetitionRules;
  /** The coming match days that have fixtures, each with its plan or none and its deadline (public.coming_match_days). */
  comingMatchDays: ComingMatchDay[];
  /** Season with the joker on: where the player's joker is (null: not played) and whether it may still move. */
  joker: { matchDay: number | null; canChange: boolean } | null;
}

type CompetitionRow = CompetitionRulesColumns & {
  id: string;
  name: string;
  type: string;
  status: string;
  current_match_day: number;
  shown: number;
  deadline: MatchdayDeadlineResult;
  selection_open: SelectionOpenResult;
};

type MembershipRow = NotNull<
  Pick<UserCompetitionStatsViewRow, "membership_status" | "knocked_out_on" | "selection_status" | "lives" | "lives_left">,
  "membership_status" | "selection_status"
> & { used_teams: unknown };

/**
 * Everything the team selection page shows, in one transaction as the player (RLS applies): the independent
 * queries are issued together so they travel in one pipelined batch (decision 012), whatever the number of
 * planned match days.
 */
export async function getTeamSelectionPage(
  db: Db,
  userId: string,
  competitionId: string,
  matchDay: number | null = null,
): Promise<TeamSelectionPage | null> {
  return db.asUser(userId, async (sql) => {
    const shown = shownMatchDay(sql, competitionId, matchDay);
    const [competitionRows, fixtureRows, membershipRows, pickRows, eligibleRows, comingRows, jokerRows] = await Promise.all([
      sql<CompetitionRow[]>`
        select c.id, c.name, c.type, c.status, c.current_match_day, s.md as shown, ${rulesColumns(sql)},
               public.matchday_deadline(c.league, c.season, s.md) as deadline,
               public.selection_open(c.league, c.season, s.md) as selection_open
          from public.competitions c
         cross join lateral (select ${shown} as md) s
         where c.id = ${competitionId} and c.type <> 'scout'`,
      sql.unsafe(
        `select ${FIXTURE_COLUMNS}
           from public.fixtures f
           join public.competitions c on c.league = f.league and c.season = f.season
          where c.id = $1 and f.match_day = (${shown.text})
          order by f.kickoff_time, f.id`,
        [competitionId],
      ),
      sql<MembershipRow[]>`
        select v.membership_status, v.knocked_out_on, v.selection_status, v.lives, v.lives_left,
               (select coalesce(json_agg(json_build_object('team', ts.selected_team, 'matchDay', ts.match_day,
                                                           'planned', ts.match_day > v.current_match_day)
                                         order by ts.match_day), '[]'::json)
                  from public.team_selections ts
                 where ts.competition_id = v.competition_id and ts.user_id = v.user_id
                   and ts.match_day <> ${shown}) as used_teams
          from public.user_competition_stats_view v
         where v.competition_id = ${competitionId} and v.user_id = ${userId}`,
      sql<{ team: string; auto_picked: boolean }[]>`
        select ts.selected_team as team, ts.auto_picked
          from public.team_selections ts
         where ts.competition_id = ${competitionId} and ts.user_id = ${userId} and ts.match_day = ${shown}`,
      sql<NotNull<GetEligibleTeamsRow, "team">[]>`
        select e.team from public.get_eligible_teams(${competitionId}, ${userId}, ${shown}) e`,
      sql<ComingMatchDaysRow[]>`select m.* from public.coming_match_days(${competitionId}) m order by m.match_day`,
      sql<{ match_day: number; can_change: boolean }[]>`
        select j.match_day, not public.matchday_deadline_passed(c.league, c.season, j.match_day) as can_change
          from public.season_jokers j
          join public.competitions c on c.id = j.competition_id
         where j.competition_id = ${competitionId} and j.user_id = ${userId}`,
    ]);
    const c = competitionRows[0];
    if (!c) return null;
    const m = membershipRows[0];
    const rules = rulesFromRow(c);
    const joker = jokerRows[0];
    return {
      competition: { id: c.id, name: c.name, type: c.type, status: c.status, currentMatchDay: c.current_match_day },
      matchDay: c.shown,
      deadline: toIso(c.deadline),
      selectionOpen: c.selection_open === true,
      membership: m
        ? {
            status: m.membership_status,
            knockedOutOn: m.knocked_out_on,
            selectionStatus: m.selection_status,
            livesLeft: livesLeftOf(m.lives, m.lives_left),
          }
        : null,
      usedTeams: parseUsedTeams(m?.used_teams),
      currentSelection: pickRows[0]?.team ?? null,
      currentAutoPicked: pickRows[0]?.auto_picked === true,
      eligibleTeams: eligibleRows.map((r) => r.team),
      fixtures: normaliseFixtures(fixtureRows),
      rules,
      comingMatchDays: comingRows.flatMap((r) =>
        r.match_day === null
          ? []
          : [
              {
                matchDay: r.match_day,
                deadline: toIso(r.deadline),
                team: r.team,
                autoPicked: r.auto_picked === true,
                joker: r.joker === true,
              },
            ],
      ),
      joker:
        c.type === "season" && rules.joker
          ? { matchDay: joker?.match_day ?? null, canChange: joker ? joker.can_change === true : true }
          : null,
    };
  });
}

/** json_agg's answer (postgres.js parses json; a string when it does not). */
function parseUsedTeams(value: unknown): { team: string; matchDay: number; planned: boolean }[] {
  const rows: unknown = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(rows)) return [];
  const used: { team: string; matchDay: number; planned: boolean }[] = [];
  for (const row of rows as unknown[]) {
    const r = row as { team?: unknown; matchDay?: unknown; planned?: unknown } | null;
    if (r && typeof r.team === "string" && typeof r.matchDay === "number")
      used.push({ team: r.team, matchDay: r.matchDay, planned: r.planned === true });
  }
  return used;
}

export type SaveSelectionCode = "saved" | "not_found" | "not_registered" | "eliminated" | "selection_closed" | "not_eligible";

/**
 * Saves (inserts or replaces) the player's pick for a match day: the current one (matchDay null) or a coming one (a
 * plan). The database applies every rule (save_team_selection).
 */
export async function saveTeamSelection(
  db: Db,
  userId: string,
  competitionId: string,
  team: string,
  matchDay: number | null = null,
): Promise<SaveSelectionCode> {
  const rows = await db.asUser(
    userId,
    (sql) =>
      sql<{ code: SaveTeamSelectionResult }[]>`select public.save_team_selection(${competitionId}, ${team}, ${matchDay}::int) as code`,
  );
  return (rows[0]?.code ?? "not_found") as SaveSelectionCode;
}

export type JokerCode =
  "played" | "removed" | "not_found" | "not_registered" | "not_season" | "joker_off" | "joker_spent" | "selection_closed";

/** Plays (or moves) the season joker on a coming match day, or takes it back (matchDay null): public.play_joker. */
export async function playJoker(db: Db, userId: string, competitionId: string, matchDay: number | null): Promise<JokerCode> {
  const rows = await db.asUser(
    userId,
    (sql) => sql<{ code: PlayJokerResult }[]>`select public.play_joker(${competitionId}, ${matchDay}::int) as code`,
  );
  return (rows[0]?.code ?? "not_found") as JokerCode;
}
