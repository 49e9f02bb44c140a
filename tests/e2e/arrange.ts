/**
 * Arranging game data straight in the database for the game specs (competition detail, leaderboards,
 * selection). Tests run in parallel against one shared database, so every competition made here gets a
 * unique name, and tests that change state make their own competition instead of using a demo one.
 */
import { db, uniqueName } from "./fixtures";

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
  namePrefix: string;
  type?: "knockout" | "season";
  /** Defaults to the current match day. Members join on the start match day. */
  startMatchDay?: number;
  status?: "active" | "inactive";
  registrationStatus?: "open" | "closed" | "completed";
  createdBy?: string | null;
  knockoutWinner?: string | null;
  /** User ids to register as members. */
  members?: string[];
}

/**
 * A demo-league competition of the test's own, whose current match day is the demo data's, with the given
 * members. Options left out give a knockout that is active, open for registration and has no creator.
 */
export async function arrangeCompetition(opts: CompetitionToArrange) {
  const { matchDay } = await currentMatchDay();
  const startMatchDay = opts.startMatchDay ?? matchDay;
  const [c] = await db()<{ id: string; name: string }[]>`
    insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                     status, registration_status, created_by, knockout_winner)
    values (${uniqueName(opts.namePrefix)}, ${opts.type ?? "knockout"}, ${LEAGUE}, ${SEASON}, current_date,
            ${startMatchDay}, ${matchDay}, ${opts.status ?? "active"}, ${opts.registrationStatus ?? "open"},
            ${opts.createdBy ?? null}, ${opts.knockoutWinner ?? null})
    returning id, name`;
  for (const uid of opts.members ?? []) {
    await db()`insert into public.user_selections (user_id, competition_id, match_day) values (${uid}, ${c.id}, ${startMatchDay})`;
  }
  return { ...c, matchDay };
}
