/**
 * A kickoff whose time is not known yet (decision 027; rules file, "Fixtures and results from a data feed"): the
 * data feed's SCHEDULED match has a date and no time, stored as that date at 00:00 UTC with kickoff_confirmed false.
 * The deadline rule's one home (matchdays, matchday_deadline, selection_open, matchday_deadline_passed,
 * matchday_closed) and what reads it:
 * - an unconfirmed kickoff never makes a match day's deadline earlier;
 * - a match day whose kickoffs are all unconfirmed has no deadline (TBA): picks stay open, registration stays open,
 *   it is not processed and nobody is reminded, until a time is known;
 * - a match that has started (a result) counts whatever the feed said about its time: a match day with a result
 *   is never still open;
 * - an admin's CSV row that changes the kickoff gives it a time (the same placeholder uploaded back does not).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const LEAGUE = "TBC League";
const SEASON = "2026/27";
const HOUR = 3_600_000;
let me: string;
let cup: string;

async function fixture(matchDay: number, kickoff: string, home: string, away: string, confirmed: boolean): Promise<string> {
  const [{ id }] = await db.sql<{ id: string }[]>`
    insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team, kickoff_confirmed)
    values (${LEAGUE}, ${SEASON}, ${matchDay}, ${kickoff}, ${home}, ${away}, ${confirmed}) returning id::text`;
  return id;
}

/** Every reader of the rule for match day `md`, on the app clock at `now`, as the member. */
const rule = (md: number, now: Date) =>
  asUser(
    db.sql,
    me,
    async (tx) => {
      const [r] = await tx`
        select public.matchday_deadline(${LEAGUE}, ${SEASON}, ${md}) as deadline,
               public.selection_open(${LEAGUE}, ${SEASON}, ${md}) as open,
               public.matchday_deadline_passed(${LEAGUE}, ${SEASON}, ${md}) as passed,
               public.matchday_closed(${LEAGUE}, ${SEASON}, ${md}) as closed`;
      return r;
    },
    { now },
  );

beforeAll(async () => {
  db = await useTestDatabase();
  const [{ id }] = await db.sql<{ id: string }[]>`
    insert into account.accounts (email, password_hash) values ('tbc@example.test', 'x') returning id`;
  await db.sql`insert into public.profiles (id, username, date_of_birth, gender) values (${id}, 'Tbc', '1990-01-01', 'male')`;
  me = id;
  // match day 1: Saturday 15:00 known, Friday's time not known yet; match day 2: no time known at all
  await fixture(1, "2026-09-05T15:00:00Z", "Hawks", "Owls", true);
  await fixture(1, "2026-09-04T00:00:00Z", "Kites", "Larks", false);
  await fixture(2, "2026-09-12T00:00:00Z", "Hawks", "Kites", false);
  await fixture(2, "2026-09-13T00:00:00Z", "Owls", "Larks", false);
  [{ id: cup }] = await db.sql<{ id: string }[]>`
    insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day)
    values ('TBC Cup', 'knockout', ${LEAGUE}, ${SEASON}, '2026-09-01', 2, 2) returning id`;
  await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
               values (${me}, ${cup}, ${LEAGUE}, ${SEASON}, 2)`;
});

afterAll(async () => {
  await db?.close();
});

describe("a kickoff time not known yet", () => {
  it("never makes its match day's deadline earlier: the deadline is the known kickoff's", async () => {
    // Thursday evening: under the placeholder (Friday 00:00) the deadline would be Thursday 23:00
    expect(await rule(1, new Date("2026-09-03T23:30:00Z"))).toEqual({
      deadline: new Date("2026-09-05T14:00:00Z"),
      open: true,
      passed: false,
      closed: false,
    });
  });

  it("leaves a match day whose times are all unknown without a deadline (TBA): open, not passed, not closed", async () => {
    expect(await rule(2, new Date("2026-09-13T12:00:00Z"))).toEqual({ deadline: null, open: true, passed: false, closed: false });
    const now = new Date("2026-09-13T12:00:00Z");
    const seen = await asUser(
      db.sql,
      me,
      async (tx) => {
        const [{ state }] = await tx`select public.registration_state(${cup}) as state`;
        const teams = await tx`select team from public.get_eligible_teams(${cup}, ${me}) order by team`;
        const [{ code }] = await tx`select public.save_team_selection(${cup}, 'Owls') as code`;
        return { state, teams: teams.map((t) => t.team), code };
      },
      { now },
    );
    expect(seen).toEqual({ state: "open", teams: ["Hawks", "Kites", "Larks", "Owls"], code: "saved" });
    // nothing processes it or closes its registration, and no reminder is due
    await db.sql.begin(async (tx) => {
      await tx`select set_config('app.now', ${now.toISOString()}, true)`;
      await tx`select public.process_due_matchdays()`;
      const reminders = await tx`select * from private.queue_reminders(${now})`;
      expect(reminders).toEqual([]);
    });
    const [c] = await db.sql`select registration_status, current_match_day from public.competitions where id = ${cup}`;
    expect(c).toEqual({ registration_status: "open", current_match_day: 2 });
  });

  it("gets its deadline once a time is known, and a match that has started counts whatever its time said", async () => {
    await db.sql`update public.fixtures set kickoff_time = '2026-09-12T19:45:00Z', kickoff_confirmed = true
                  where league = ${LEAGUE} and season = ${SEASON} and match_day = 2 and home_team = 'Owls'`;
    expect((await rule(2, new Date("2026-09-12T12:00:00Z"))).deadline).toEqual(new Date(Date.parse("2026-09-12T19:45:00Z") - HOUR));

    // match day 1's Friday match, still without a time, has a result: the match day is under way
    await db.sql`update public.fixtures set status = 'complete', home_score = 1, away_score = 0, result = 'home_win'
                  where league = ${LEAGUE} and season = ${SEASON} and match_day = 1 and home_team = 'Kites'`;
    expect(await rule(1, new Date("2026-09-04T22:00:00Z"))).toEqual({
      deadline: new Date("2026-09-03T23:00:00Z"),
      open: false,
      passed: true,
      closed: true,
    });
  });

  it("a CSV row that changes the kickoff gives it a time; the placeholder uploaded back stays TBC", async () => {
    const [{ id: admin }] = await db.sql<{ id: string }[]>`
      insert into account.accounts (email, password_hash) values ('tbc-admin@example.test', 'x') returning id`;
    await db.sql`insert into public.profiles (id, username, date_of_birth, gender, role)
                 values (${admin}, 'TbcAdmin', '1980-01-01', 'female', 'admin')`;
    const upload = (kickoff: string) =>
      asUser(
        db.sql,
        admin,
        (tx) =>
          tx`select public.upsert_fixtures(${tx.json([
            {
              line: 2,
              league: LEAGUE,
              season: SEASON,
              match_day: "2",
              home_team: "Hawks",
              away_team: "Kites",
              kickoff_time: kickoff,
              status: "pending",
            },
          ])}::jsonb)`,
        { now: new Date("2026-09-01T12:00:00Z") },
      );
    const confirmed = async () =>
      (
        await db.sql`select kickoff_confirmed from public.fixtures
                     where league = ${LEAGUE} and season = ${SEASON} and match_day = 2 and home_team = 'Hawks'`
      )[0].kickoff_confirmed;
    await upload("2026-09-12T00:00:00Z");
    expect(await confirmed()).toBe(false);
    await upload("2026-09-12T14:00:00Z");
    expect(await confirmed()).toBe(true);
    expect((await rule(2, new Date("2026-09-12T12:00:00Z"))).deadline).toEqual(new Date("2026-09-12T13:00:00Z"));
  });
});
