/**
 * "Can this member pick now" and "is registration open" have one home each in SQL (decision 011), and every
 * reader gives the same answer: public.selection_open, the stats view's selection_status (what the dashboard,
 * My Competitions, the competition page and the team selection page show), get_eligible_teams and
 * save_team_selection; public.registration_state (what the lists and the competition page show) and
 * join_competition. Rule: a match day with no fixtures (deadline TBA) is not open; before the deadline
 * (first kickoff - 1 h) it is open; at and after it, closed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "State League";
const SEASON = "2025/26";
const HOUR = 3_600_000;
const KICKOFF = new Date("2026-09-05T14:00:00Z"); // match day 1's first kickoff; match day 2 has no fixtures
const DEADLINE = new Date(KICKOFF.getTime() - HOUR);
const BEFORE = new Date(DEADLINE.getTime() - 60_000);
const AFTER = new Date(DEADLINE.getTime() + 60_000);

let me: string;
let onFixtures: string; // current match day 1
let onTba: string; // current match day 2, no fixtures yet

async function competition(name: string, matchDay: number, extra: Record<string, unknown> = {}): Promise<string> {
  const row = {
    name,
    type: "season",
    league: LEAGUE,
    season: SEASON,
    start_date: "2026-09-01",
    start_match_day: matchDay,
    current_match_day: matchDay,
    registration_status: "open",
    ...extra,
  };
  const [{ id }] = await db.sql<{ id: string }[]>`insert into public.competitions ${db.sql(row)} returning id`;
  return id;
}

/** Every reader of the selection rule for my membership of a competition, at a time on the app clock. */
async function selectionState(competitionId: string, matchDay: number, now: Date) {
  return asUser(
    db.sql,
    me,
    async (tx) => {
      const [{ open, closed }] = await tx`
      select public.selection_open(${LEAGUE}, ${SEASON}, ${matchDay}) as open,
             public.matchday_closed(${LEAGUE}, ${SEASON}, ${matchDay}) as closed`;
      const [{ status }] = await tx`
      select selection_status as status from public.user_competition_stats_view
       where competition_id = ${competitionId} and user_id = ${me}`;
      const teams = await tx`select team from public.get_eligible_teams(${competitionId}, ${me})`;
      const [{ code }] = await tx`select public.save_team_selection(${competitionId}, 'Hawks') as code`;
      return { open, closed, status, eligible: teams.length > 0, save: code };
    },
    { now },
  );
}

beforeAll(async () => {
  db = await useTestDatabase();
  const [{ id }] = await db.sql<{ id: string }[]>`
    insert into account.accounts (email, password_hash) values ('state@example.test', 'x') returning id`;
  await db.sql`insert into public.profiles (id, username, date_of_birth, gender) values (${id}, 'Stater', '1990-01-01', 'female')`;
  me = id;
  await db.sql`
    insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team) values
      (${LEAGUE}, ${SEASON}, 1, ${KICKOFF}, 'Hawks', 'Owls')`;
  onFixtures = await competition("Has fixtures", 1);
  onTba = await competition("Deadline TBA", 2);
  for (const [c, matchDay] of [
    [onFixtures, 1],
    [onTba, 2],
  ] as const) {
    await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                 values (${me}, ${c}, ${LEAGUE}, ${SEASON}, ${matchDay})`;
  }
});

afterAll(async () => {
  await db?.close();
});

describe("selection open for a match day", () => {
  it("is not open while the match day has no fixtures (deadline TBA), for every reader", async () => {
    expect(await selectionState(onTba, 2, BEFORE)).toEqual({
      open: false,
      closed: true,
      status: "closed",
      eligible: false,
      save: "selection_closed",
    });
  });

  it("is open before the deadline, for every reader", async () => {
    expect(await selectionState(onFixtures, 1, BEFORE)).toEqual({
      open: true,
      closed: false,
      status: "active",
      eligible: true,
      save: "saved",
    });
  });

  it("is closed at the deadline and after it, for every reader", async () => {
    for (const now of [DEADLINE, AFTER]) {
      expect(await selectionState(onFixtures, 1, now)).toEqual({
        open: false,
        closed: true,
        status: "closed",
        eligible: false,
        save: "selection_closed",
      });
    }
  });

  it("keeps a TBA match day's picks hidden: its deadline has not passed", async () => {
    const [{ passed }] = await asUser(
      db.sql,
      me,
      (tx) => tx`
      select public.matchday_deadline_passed(${LEAGUE}, ${SEASON}, 2) as passed`,
      { now: AFTER },
    );
    expect(passed).toBe(false);
  });
});

describe("registration state", () => {
  const state = (competitionId: string, now: Date) =>
    asUser(db.sql, me, async (tx) => (await tx`select public.registration_state(${competitionId}) as s`)[0].s, { now });

  it("is open before the start match day's deadline and closed from it on, whatever the stored status says", async () => {
    const c = await competition("Registration window", 1);
    expect(await state(c, BEFORE)).toBe("open");
    expect(await state(c, DEADLINE)).toBe("closed");
    // The stored status still says open (nothing ran close_due_registrations), and joining agrees with the state.
    const [{ stored }] = await db.sql`select registration_status as stored from public.competitions where id = ${c}`;
    expect(stored).toBe("open");
    const join = await asUser(db.sql, me, async (tx) => (await tx`select public.join_competition(${c}) as code`)[0].code, { now: AFTER });
    expect(join).toBe("registration_closed");
  });

  it("stays open while the start match day has no fixtures (decision 005), and says completed and closed as stored", async () => {
    expect(await state(await competition("Starts TBA", 2), AFTER)).toBe("open");
    expect(await state(await competition("Stored closed", 1, { registration_status: "closed" }), BEFORE)).toBe("closed");
    expect(await state(await competition("Ended", 1, { registration_status: "completed", status: "inactive" }), BEFORE)).toBe("completed");
    expect(await state(await competition("Inactive", 1, { status: "inactive" }), BEFORE)).toBe("closed");
  });
});
