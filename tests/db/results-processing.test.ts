/**
 * Match-day processing (rules file: Knockout, Season, Competitions): entering the last result of a match day
 * through save_fixture_result processes it; corrections and postponements re-derive; re-running is a no-op;
 * registration closes at the start match day's deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { HOMES, kickoff, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan", "Eve"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

type Case = {
  name: string;
  picks: Record<string, string | null>; // match day 1 picks (null = no pick)
  scores: Partial<Record<(typeof HOMES)[number], [number, number] | "P">>;
  expected: Record<string, string>;
  competition: { current_match_day: number; status: string; registration_status: string; knockout_winner: string | null };
};

const cases: Case[] = [
  {
    name: "win stays in, draw / loss / no pick go out, a postponed pick survives",
    picks: { Amy: "T1", bob: "T4", Cat: "T5", dan: null, Eve: "T7" },
    scores: { T1: [2, 0], T3: [1, 1], T5: [0, 1], T7: "P" },
    expected: { Amy: "active", bob: "eliminated@1", Cat: "eliminated@1", dan: "eliminated@1", Eve: "active" },
    competition: { current_match_day: 2, status: "active", registration_status: "closed", knockout_winner: null },
  },
  {
    name: "roll-over: when every remaining player would go out, nobody does",
    picks: { Amy: "T2", bob: "T4", Cat: null },
    scores: { T1: [2, 0], T3: [0, 0] },
    expected: { Amy: "active", bob: "active", Cat: "active" },
    competition: { current_match_day: 2, status: "active", registration_status: "closed", knockout_winner: null },
  },
  {
    name: "last player standing wins: competition inactive and completed",
    picks: { Amy: "T2", bob: "T3", Cat: "T5" },
    scores: { T1: [2, 0], T3: [3, 0], T5: [0, 0] },
    expected: { Amy: "eliminated@1", bob: "completed", Cat: "eliminated@1" },
    competition: { current_match_day: 1, status: "inactive", registration_status: "completed", knockout_winner: "bob" },
  },
];

describe("knockout match day (table)", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const league = await w.league();
      const comp = await w.competition(league, "knockout", Object.keys(c.picks));
      for (const [name, team] of Object.entries(c.picks)) if (team) await w.pick(comp, name, 1, team);
      // Nothing happens before the match day's last result.
      for (const home of HOMES.slice(0, 3)) {
        const s = c.scores[home] ?? [1, 0];
        if (s === "P") await w.postpone(league, 1, home);
        else expect(await w.score(league, 1, home, s[0], s[1])).toBe("saved");
      }
      expect(await w.processed(comp)).toEqual([]);
      expect((await w.competitionRow(comp)).current_match_day).toBe(1);
      const last = c.scores.T7 ?? [1, 0];
      if (last === "P") await w.postpone(league, 1, "T7");
      else await w.score(league, 1, "T7", last[0], last[1]);

      expect(await w.memberships(comp)).toEqual(c.expected);
      expect(await w.competitionRow(comp)).toEqual(c.competition);
      expect(await w.processed(comp)).toEqual([1]);
    });
  }

  it("several still in when match days run out: all Winner, the first alphabetically stored", async () => {
    const league = await w.league(1);
    const comp = await w.competition(league, "knockout", ["Cat", "bob", "Amy"], { total_match_days: 1 });
    await w.pick(comp, "Cat", 1, "T1");
    await w.pick(comp, "bob", 1, "T3");
    await w.pick(comp, "Amy", 1, "T6"); // loses
    await w.playMatchDay(league, 1, {});
    expect(await w.memberships(comp)).toEqual({ Amy: "eliminated@1", bob: "completed", Cat: "completed" });
    expect(await w.competitionRow(comp)).toEqual({
      current_match_day: 1,
      status: "inactive",
      registration_status: "completed",
      knockout_winner: "bob",
    });
    const board = await asUser(
      db.sql,
      w.ids.Amy,
      (tx) => tx<{ user_username: string; status: string }[]>`
      select user_username, status from public.knockout_leaderboard_view where competition_id = ${comp} order by position`,
    );
    expect(board).toEqual([
      { user_username: "bob", status: "Winner" },
      { user_username: "Cat", status: "Winner" },
      { user_username: "Amy", status: "Eliminated" },
    ]);
  });

  it("runs match day after match day, and a match day already finished is processed on arrival", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    // Match day 2 is entered first (nothing to process yet: current is 1).
    await w.pick(comp, "Amy", 2, "T1");
    await w.pick(comp, "bob", 2, "T3");
    await w.playMatchDay(league, 2, { T3: [0, 2] });
    expect(await w.processed(comp)).toEqual([]);
    for (const n of ["Amy", "bob", "Cat"]) await w.pick(comp, n, 1, "T5");
    await w.playMatchDay(league, 1, {});
    // 1 processed (all win) and 2 right after: bob lost, Cat had no pick -> Amy alone: winner.
    expect(await w.processed(comp)).toEqual([1, 2]);
    expect(await w.memberships(comp)).toEqual({ Amy: "completed", bob: "eliminated@2", Cat: "eliminated@2" });
    expect((await w.competitionRow(comp)).knockout_winner).toBe("Amy");
  });
});

describe("season match day", () => {
  it("scores 3/1/0 with goals, ranks ties 1 1 3, ends after the last match day", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "season", ["Amy", "bob", "Cat", "dan", "Eve"], { total_match_days: 2 });
    await w.pick(comp, "Amy", 1, "T1"); // 2-0 win
    await w.pick(comp, "bob", 1, "T1"); // 2-0 win
    await w.pick(comp, "Cat", 1, "T3"); // 1-1 draw
    await w.pick(comp, "dan", 1, "T6"); // 3-0 loss
    // Eve: no pick
    await w.playMatchDay(league, 1, { T1: [2, 0], T3: [1, 1], T5: [3, 0] });
    expect(await w.competitionRow(comp)).toEqual({
      current_match_day: 2,
      status: "active",
      registration_status: "closed",
      knockout_winner: null,
    });
    const page = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx<Record<string, unknown>[]>`
      select username, rank, wins, draws, losses, goals_for, goals_against, points, position
        from public.season_leaderboard_page(${comp}, 0, 10)`,
    );
    expect(page).toEqual([
      { username: "Amy", rank: 1, wins: 1, draws: 0, losses: 0, goals_for: 2, goals_against: 0, points: 3, position: 1 },
      { username: "bob", rank: 1, wins: 1, draws: 0, losses: 0, goals_for: 2, goals_against: 0, points: 3, position: 2 },
      { username: "Cat", rank: 3, wins: 0, draws: 1, losses: 0, goals_for: 1, goals_against: 1, points: 1, position: 3 },
      { username: "Eve", rank: 4, wins: 0, draws: 0, losses: 0, goals_for: 0, goals_against: 0, points: 0, position: 4 },
      { username: "dan", rank: 5, wins: 0, draws: 0, losses: 1, goals_for: 0, goals_against: 3, points: 0, position: 5 },
    ]);
    // Season members are never eliminated.
    expect(Object.values(await w.memberships(comp))).toEqual(["active", "active", "active", "active", "active"]);

    await w.pick(comp, "Cat", 2, "T1"); // 4-0 win: Cat 4 pts, alone on top
    await w.playMatchDay(league, 2, { T1: [4, 0] });
    expect(await w.competitionRow(comp)).toEqual({
      current_match_day: 2,
      status: "inactive",
      registration_status: "completed",
      knockout_winner: null,
    });
    const [champion] = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx<{ username: string; rank: number }[]>`
      select username, rank from public.season_leaderboard_page(${comp}, 0, 1)`,
    );
    expect(champion).toEqual({ username: "Cat", rank: 1 });
  });
});

describe("corrections and postponements re-process", () => {
  it("a loss corrected to a win brings the player back", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T3");
    await w.pick(comp, "Cat", 1, "T6");
    await w.playMatchDay(league, 1, {}); // Cat loses T5-T6 1-0
    expect(await w.memberships(comp)).toEqual({ Amy: "active", bob: "active", Cat: "eliminated@1" });
    await w.score(league, 1, "T5", 0, 2);
    expect(await w.memberships(comp)).toEqual({ Amy: "active", bob: "active", Cat: "active" });
    expect(await w.competitionRow(comp)).toMatchObject({ current_match_day: 2, status: "active" });
    expect(await w.processed(comp)).toEqual([1]);
  });

  it("re-opens a competition that ended when the correction changes the outcome", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "knockout", ["Amy", "bob"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T4");
    await w.playMatchDay(league, 1, {}); // bob loses
    expect(await w.competitionRow(comp)).toEqual({
      current_match_day: 1,
      status: "inactive",
      registration_status: "completed",
      knockout_winner: "Amy",
    });
    await w.score(league, 1, "T3", 0, 1); // bob's team won after all
    expect(await w.memberships(comp)).toEqual({ Amy: "active", bob: "active" });
    expect(await w.competitionRow(comp)).toEqual({
      current_match_day: 2,
      status: "active",
      registration_status: "closed",
      knockout_winner: null,
    });
  });

  it("a correction on an earlier match day re-derives the later ones", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T3");
    await w.pick(comp, "Cat", 1, "T6");
    await w.playMatchDay(league, 1, {}); // Cat out on 1
    await w.pick(comp, "Amy", 2, "T3");
    await w.pick(comp, "bob", 2, "T6");
    await w.playMatchDay(league, 2, {}); // bob out on 2 -> Amy wins
    expect(await w.memberships(comp)).toEqual({ Amy: "completed", bob: "eliminated@2", Cat: "eliminated@1" });
    // Match day 1: Amy's team draws instead -> Amy and Cat out on 1, bob alone -> bob wins on 1.
    await w.score(league, 1, "T1", 0, 0);
    expect(await w.memberships(comp)).toEqual({ Amy: "eliminated@1", bob: "completed", Cat: "eliminated@1" });
    expect(await w.competitionRow(comp)).toMatchObject({ current_match_day: 1, status: "inactive", knockout_winner: "bob" });
    expect(await w.processed(comp)).toEqual([1]);
    // And back: the first history again.
    await w.score(league, 1, "T1", 1, 0);
    expect(await w.memberships(comp)).toEqual({ Amy: "completed", bob: "eliminated@2", Cat: "eliminated@1" });
    expect(await w.processed(comp)).toEqual([1, 2]);
  });

  it("postponing a played fixture saves its pickers; undoing it re-opens the match day", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T3");
    await w.pick(comp, "Cat", 1, "T6");
    await w.playMatchDay(league, 1, {});
    expect(await w.memberships(comp)).toMatchObject({ Cat: "eliminated@1" });
    expect(await w.postpone(league, 1, "T5")).toBe("saved");
    expect(await w.memberships(comp)).toMatchObject({ Cat: "active" });
    const [fixture] = await db.sql`select status, home_score, result from public.fixtures
                                    where league = ${league} and match_day = 1 and home_team = 'T5'`;
    expect(fixture).toEqual({ status: "postponed", home_score: null, result: null });
    expect(await w.postpone(league, 1, "T5", false)).toBe("saved");
    expect(await w.competitionRow(comp)).toMatchObject({ current_match_day: 1, status: "active" });
    expect(await w.processed(comp)).toEqual([]);
    await w.score(league, 1, "T5", 1, 0);
    expect(await w.memberships(comp)).toMatchObject({ Cat: "eliminated@1" });
  });
});

describe("idempotence", () => {
  it("process_due_matchdays twice, and the same result saved twice, change nothing", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T4");
    // Results written directly (e.g. by a bulk tool): nothing processed yet.
    await db.sql`update public.fixtures set home_score = 1, away_score = 0, result = 'home_win', status = 'complete'
                  where league = ${league} and match_day = 1`;
    expect(await w.processed(comp)).toEqual([]);
    const run = () => w.asAdmin((tx) => tx<{ n: number }[]>`select public.process_due_matchdays() as n`);
    expect((await run())[0].n).toBeGreaterThanOrEqual(1);
    const snapshot = async () => ({
      members: await w.memberships(comp),
      comp: await w.competitionRow(comp),
      marks: await db.sql`select match_day, processed_at from public.competition_matchday_results where competition_id = ${comp}`,
    });
    const first = await snapshot();
    expect(first.members).toEqual({ Amy: "completed", bob: "eliminated@1", Cat: "eliminated@1" });
    expect(first.comp.knockout_winner).toBe("Amy");
    expect((await run())[0].n).toBe(0);
    expect(await snapshot()).toEqual(first);
    await w.score(league, 1, "T1", 1, 0);
    expect(await snapshot()).toEqual(first);
  });

  it("the service path (no player session) may run process_due_matchdays; a player may not", async () => {
    const [{ n }] = await db.sql<{ n: number }[]>`select public.process_due_matchdays() as n`;
    expect(n).toBe(0);
    await expect(asUser(db.sql, w.ids.Amy, (tx) => tx`select public.process_due_matchdays()`)).rejects.toMatchObject({
      code: "42501",
      message: "Access denied. Admins only.",
    });
    await expect(asUser(db.sql, w.ids.Amy, (tx) => tx`select private.process_due_matchdays()`)).rejects.toMatchObject({
      code: "42501",
    });
  });
});

describe("registration closing", () => {
  it("closes at the start match day's deadline (process_due_matchdays on the app clock)", async () => {
    const league = await w.league();
    const comp = await w.competition(league, "season", ["Amy"], {
      registration_status: "open",
      start_match_day: 2,
      current_match_day: 2,
    });
    const deadline = new Date(kickoff(2).getTime() - 3_600_000);
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, new Date(deadline.getTime() - 1000));
    expect((await w.competitionRow(comp)).registration_status).toBe("open");
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, deadline);
    expect((await w.competitionRow(comp)).registration_status).toBe("closed");
  });
});
