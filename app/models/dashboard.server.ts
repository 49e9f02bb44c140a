import type { Db } from "~/db/types";
import type { LiveLine } from "~/lib/live";
import { byRegistrationDeadline, registrationDeadline } from "~/models/competitions.server";
import { livesLeftOf, registrationState, rulesColumns, type SeasonStats } from "~/models/competition-rows.server";
import { creationMatchDaysQuery, toCreationOptions, type CreationOption } from "~/models/competition-creation.server";
import { rulesFromRow, type CompetitionRules, type CompetitionRulesColumns } from "~/lib/competition-rules";
import { liveLinesQuery, toLiveLines } from "~/models/live.server";
import { playerStatusLabel, type PlayerStatusLabel } from "~/lib/player-status";

interface UpcomingCompetition {
  id: string;
  name: string;
  type: "season" | "knockout";
  league: string;
  visibility: "public" | "private";
  playerCount: number;
  /** Registration closes at the start match day's deadline. */
  registrationDeadline: string | null;
  /** The player is a member already (the card offers Select Team instead of Join). */
  joined: boolean;
  /** The organiser's rules, shown before joining. */
  rules: CompetitionRules;
}

export interface RegisteredCompetition extends SeasonStats {
  id: string;
  name: string;
  type: "season" | "knockout";
  competitionStatus: "active" | "inactive";
  membershipStatus: "active" | "completed" | "eliminated";
  currentSelection: string | null;
  /** active = the player may pick now; decided in SQL (user_competition_stats_view.selection_status). */
  selectionStatus: "active" | "eliminated" | "closed";
  selectionDeadline: string | null;
  currentMatchDay: number;
  /** Knockout lives left when the competition has more than one life, else null. */
  livesLeft: number | null;
  /** The current pick was made by the server at the deadline ("Auto-picked"). */
  autoPicked: boolean;
}

interface PrivateCompetition {
  id: string;
  name: string;
  playerCount: number;
  status: "active" | "inactive";
  /** As the rule stands now (public.registration_state), not the stored status. */
  registrationStatus: "open" | "closed" | "completed";
  registrationKey: string | null;
}

interface Dashboard {
  upcoming: UpcomingCompetition[];
  registered: RegisteredCompetition[];
  privateCompetitions: PrivateCompetition[];
  /** "If it ended now" for each of the player's competitions being played (decision 022). */
  live: LiveLine[];
  /** The private create form's choices: each league and season with its open match days. */
  creationOptions: CreationOption[];
}

interface UpcomingRow
  extends Pick<UpcomingCompetition, "id" | "name" | "type" | "league" | "visibility" | "joined">, CompetitionRulesColumns {
  player_count: number;
  registration_deadline: Date | string | null;
}

interface RegisteredRow {
  competition_id: string;
  competition: string;
  competition_type: RegisteredCompetition["type"];
  competition_status: RegisteredCompetition["competitionStatus"];
  membership_status: RegisteredCompetition["membershipStatus"];
  rank: number | null;
  wins: number;
  draws: number;
  losses: number;
  goals_for: number;
  goals_against: number;
  points: number;
  current_selection: string | null;
  selection_status: RegisteredCompetition["selectionStatus"];
  selection_deadline: Date | string | null;
  current_match_day: number;
  lives: number;
  lives_left: number;
  current_selection_auto_picked: boolean;
}

interface PrivateRow extends Pick<PrivateCompetition, "id" | "name" | "status"> {
  player_count: number;
  registration_status: PrivateCompetition["registrationStatus"];
  registration_key: string | null;
}

const UPCOMING_LIMIT = 12;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/**
 * Everything the dashboard shows, in one transaction whose three queries are sent together (one
 * pipelined round trip between BEGIN and COMMIT), whatever the number of competitions.
 */
export async function getDashboard(db: Db, userId: string): Promise<Dashboard> {
  return db.asUser(userId, async (sql) => {
    const [upcoming, registered, privates, liveRows, creationRows] = await Promise.all([
      sql<UpcomingRow[]>`
        select c.id, c.name, c.type, c.league, c.visibility, c.player_count, ${rulesColumns(sql)},
               ${registrationDeadline(sql)} as registration_deadline,
               exists (select 1 from public.user_selections us
                        where us.competition_id = c.id and us.user_id = ${userId}) as joined
          from public.competitions c
         where c.registration_status = 'open' -- a prefilter the index serves; the rule is registration_state
           and ${registrationState(sql)} = 'open'
         order by ${byRegistrationDeadline(sql)} -- the next step first, as on the Competitions list
         limit ${UPCOMING_LIMIT}`,
      sql<RegisteredRow[]>`
        select competition_id, competition, competition_type, competition_status, membership_status, rank,
               wins, draws, losses, goals_for, goals_against, points, current_selection, selection_status,
               selection_deadline, current_match_day, lives, lives_left, current_selection_auto_picked
          from public.user_competition_stats_view
         where user_id = ${userId} and competition_type <> 'scout'
         order by (competition_status = 'active') desc, selection_deadline nulls last, competition`,
      sql<PrivateRow[]>`
        select c.id, c.name, c.player_count, c.status, ${registrationState(sql)} as registration_status,
               public.competition_registration_key(c.id) as registration_key
          from public.competitions c
         where c.created_by = ${userId} and c.visibility = 'private'
         order by c.created_at desc`,
      // the live match day, in the same batch (decision 022)
      liveLinesQuery(sql, null),
      creationMatchDaysQuery(sql),
    ]);
    return {
      upcoming: upcoming.map((r) => ({
        id: r.id,
        name: r.name,
        type: r.type,
        league: r.league,
        visibility: r.visibility,
        playerCount: r.player_count,
        registrationDeadline: iso(r.registration_deadline),
        joined: r.joined === true,
        rules: rulesFromRow(r),
      })),
      registered: registered.map((r) => ({
        id: r.competition_id,
        name: r.competition,
        type: r.competition_type,
        competitionStatus: r.competition_status,
        membershipStatus: r.membership_status,
        rank: r.rank,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        goalsFor: r.goals_for,
        goalsAgainst: r.goals_against,
        points: r.points,
        currentSelection: r.current_selection,
        selectionStatus: r.selection_status,
        selectionDeadline: iso(r.selection_deadline),
        currentMatchDay: r.current_match_day,
        livesLeft: livesLeftOf(r.lives, r.lives_left),
        autoPicked: r.current_selection_auto_picked === true,
      })),
      privateCompetitions: privates.map((r) => ({
        id: r.id,
        name: r.name,
        playerCount: r.player_count,
        status: r.status,
        registrationStatus: r.registration_status,
        registrationKey: r.registration_key,
      })),
      live: toLiveLines(liveRows),
      creationOptions: toCreationOptions(creationRows),
    };
  });
}

type SelectionAction = { kind: "select" | "edit" } | { kind: "badge"; label: "Eliminated" | "Winner" | "Completed" | "Selection Closed" };

/** The player's standing in one word (app/lib/player-status), the same on desktop and mobile. */
export function playerStatus(row: RegisteredCompetition): PlayerStatusLabel {
  return playerStatusLabel({
    type: row.type,
    competitionStatus: row.competitionStatus,
    membershipStatus: row.membershipStatus,
    rank: row.rank,
  });
}

/**
 * What a registered row offers: the team-selection link, or the badge that replaces it (spec part 1 §2). Whether
 * the player may pick is SQL's selection_status ("active"); this only chooses the words for the other cases:
 * an ended competition reads Winner (a title win) or Completed, a match day that is not open (deadline passed, or no fixtures yet)
 * Selection Closed.
 */
export function selectionAction(row: RegisteredCompetition): SelectionAction {
  if (row.selectionStatus === "eliminated") return { kind: "badge", label: "Eliminated" };
  if (row.selectionStatus === "active") return { kind: row.currentSelection ? "edit" : "select" };
  // An ended competition: a title win reads Winner, anything else Completed (never a bare "Closed").
  if (row.competitionStatus !== "active" || row.membershipStatus === "completed")
    return { kind: "badge", label: playerStatus(row) === "Winner" ? "Winner" : "Completed" };
  return { kind: "badge", label: "Selection Closed" };
}
