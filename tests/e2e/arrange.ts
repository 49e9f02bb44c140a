/**
 * Arranging game data straight in the database for the game specs, with the shared factories
 * (tests/support/factories.ts). Tests run in parallel against one shared database, so every competition made
 * here gets a unique name, tests that change state make their own competition instead of using a demo one, and
 * every competition arranged here is removed when its test ends (fixtures.ts removeAfterTest).
 */
import { addMember, createCompetition } from "../support/factories";
import { db, removeAfterTest, uniqueName } from "./fixtures";

/** The demo data's league and season (scripts/db/seed.ts). */
export const LEAGUE = "Premier League";
export const SEASON = "2025/26";

/** The demo data's current match day: the first one whose first kickoff is still ahead. */
export async function currentMatchDay() {
  const [row] = await db()<{ match_day: number; first_kickoff_time: Date }[]>`
    select match_day, first_kickoff_time from public.matchdays
     where league = ${LEAGUE} and season = ${SEASON} and first_kickoff_time > now()
     order by match_day limit 1`;
  return { matchDay: row.match_day, firstKickoff: new Date(row.first_kickoff_time) };
}

/** A match day's fixtures in kickoff order, the order the pages list them in. */
export async function fixturesOf(matchDay: number) {
  return db()<{ id: string; home_team: string; away_team: string }[]>`
    select id::text, home_team, away_team from public.fixtures
     where league = ${LEAGUE} and season = ${SEASON} and match_day = ${matchDay}
     order by kickoff_time, id`;
}

export async function userId(username: string): Promise<string> {
  const [row] = await db()<{ id: string }[]>`select id from public.player_names where username = ${username}`;
  return row.id;
}

/** Demo players other than the two demo accounts (members for arranged competitions). */
export async function demoPlayers(n: number) {
  return db()<{ id: string; username: string }[]>`
    select p.id, p.username from public.profiles p
     where p.email like '%@footycoach.test' and p.email not in ('player@footycoach.test', 'admin@footycoach.test')
     order by p.username limit ${n}`;
}

export interface CompetitionToArrange {
  /** Start of the unique name, so a failing test's rows are easy to trace back to its spec. */
  namePrefix?: string;
  /** The exact name instead (callers make it unique, e.g. with uniqueName). */
  name?: string;
  type?: "knockout" | "season" | "scout";
  /** Defaults to the current match day. Members join on the start match day. */
  startMatchDay?: number;
  /**
   * "today" for a competition the lists must show first: open competitions are listed by registration deadline,
   * then start date, and today is the earliest a new competition can start (the creation forms refuse earlier
   * days). Default: the day of the start match day's first kickoff.
   */
  startDate?: "today";
  status?: "active" | "inactive";
  registrationStatus?: "open" | "closed" | "completed";
  visibility?: "public" | "private";
  createdBy?: string | null;
  knockoutWinner?: string | null;
  /** User ids to register as members. */
  members?: string[];
  /** The organiser's rules as columns (lives, draw_rule, missed_pick_rule, everyone_out_rule, *_points, joker). */
  rules?: Record<string, unknown>;
}

/**
 * A demo-league competition of the test's own, whose current match day is the demo data's, with the given
 * members. Options left out give a public knockout that is active, open for registration and has no creator.
 */
export async function arrangeCompetition(opts: CompetitionToArrange) {
  const { matchDay, firstKickoff } = await currentMatchDay();
  const startMatchDay = opts.startMatchDay ?? matchDay;
  const c = await createCompetition(db(), {
    name: opts.name ?? uniqueName(opts.namePrefix ?? "Arranged "),
    type: opts.type ?? "knockout",
    league: LEAGUE,
    season: SEASON,
    startDate: opts.startDate,
    startMatchDay,
    currentMatchDay: matchDay,
    status: opts.status,
    registrationStatus: opts.registrationStatus,
    visibility: opts.visibility,
    createdBy: opts.createdBy ?? null,
    knockoutWinner: opts.knockoutWinner ?? null,
    columns: opts.rules,
  });
  removeAfterTest(c);
  for (const uid of opts.members ?? []) await addMember(db(), c.id, uid, { matchDay: startMatchDay });
  return { ...c, matchDay, firstKickoff };
}
