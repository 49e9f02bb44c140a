/**
 * The organiser's rules one by one, each as a player would notice it (rules file "The organiser's rules";
 * decision 028): lives and lives left, a draw that is enough, roll-over that costs nobody a life, joint winners,
 * the auto-pick at the deadline (the league's own table, plans respected, "Auto-picked" wherever picks show, no
 * eligible team left), season points and the joker, the live projection on the same rules, and a correction's
 * notice naming lives. Every combination of the rules is the table of rules-processing.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { kickoff, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;
const HOUR = 3_600_000;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "Bob", "Cat", "Dan"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

const knockout = (league: string, members: string[], rules: Record<string, unknown>) =>
  w.competition(league, "knockout", members, { lives: 1, ...rules });

async function lives(comp: string): Promise<Record<string, string>> {
  const rows = await asUser(
    db.sql,
    w.ids.Amy,
    (tx) => tx<{ user_username: string; status: string; lives_left: number }[]>`
      select user_username, status, lives_left from public.knockout_leaderboard_page(${comp}, 0, 10)`,
  );
  return Object.fromEntries(rows.map((r) => [r.user_username, `${r.status}:${r.lives_left}`]));
}

describe("knockout lives and the draw rule", () => {
  it("with 2 lives a loss costs one life (lives left shown), the second loss eliminates", async () => {
    const league = await w.league(3);
    const comp = await knockout(league, ["Amy", "Bob", "Cat"], { lives: 2 });
    for (const [name, team] of [
      ["Amy", "T1"],
      ["Bob", "T2"],
      ["Cat", "T3"],
    ])
      await w.pick(comp, name, 1, team);
    for (const [name, team] of [
      ["Amy", "T3"],
      ["Bob", "T4"],
      ["Cat", "T5"],
    ])
      await w.pick(comp, name, 2, team);
    await w.playMatchDay(league, 1, { T1: [1, 0], T3: [1, 0] }); // Bob loses
    expect(await lives(comp)).toEqual({ Amy: "Still In:2", Bob: "Still In:1", Cat: "Still In:2" });
    await w.playMatchDay(league, 2, { T3: [2, 0], T5: [1, 0] }); // Bob loses again
    expect(await w.memberships(comp)).toEqual({ Amy: "active", Bob: "eliminated@2", Cat: "active" });
    expect(await lives(comp)).toEqual({ Amy: "Still In:2", Cat: "Still In:2", Bob: "Eliminated:0" });
    const [me] = await asUser(
      db.sql,
      w.ids.Bob,
      (tx) => tx<{ lives: number; lives_left: number }[]>`
        select lives, lives_left from public.user_competition_stats_view where competition_id = ${comp} and user_id = ${w.ids.Bob}`,
    );
    expect(me).toEqual({ lives: 2, lives_left: 0 });
  });

  it('"A draw is enough": a draw keeps the player in; "A draw costs a life" puts them out', async () => {
    const league = await w.league(2);
    const enough = await knockout(league, ["Amy", "Bob", "Cat"], { draw_rule: "through" });
    const costs = await knockout(league, ["Amy", "Bob", "Cat"], {});
    for (const comp of [enough, costs]) {
      await w.pick(comp, "Amy", 1, "T1"); // draw
      await w.pick(comp, "Bob", 1, "T3"); // win
      await w.pick(comp, "Cat", 1, "T6"); // loss
    }
    await w.playMatchDay(league, 1, { T1: [1, 1], T3: [2, 0], T5: [1, 0] });
    expect(await w.memberships(enough)).toEqual({ Amy: "active", Bob: "active", Cat: "eliminated@1" });
    expect(await w.memberships(costs)).toEqual({ Amy: "eliminated@1", Bob: "completed", Cat: "eliminated@1" });
  });
});

describe("everyone out", () => {
  it("roll-over: nobody is out and nobody loses a life; joint winners: they all win and the competition ends", async () => {
    const league = await w.league(3);
    const rollover = await knockout(league, ["Amy", "Bob"], { lives: 2, everyone_out_rule: "rollover" });
    const joint = await knockout(league, ["Amy", "Bob"], { lives: 2, everyone_out_rule: "joint" });
    for (const comp of [rollover, joint]) {
      await w.pick(comp, "Amy", 1, "T2");
      await w.pick(comp, "Bob", 1, "T4");
      await w.pick(comp, "Amy", 2, "T6");
      await w.pick(comp, "Bob", 2, "T8");
    }
    await w.playMatchDay(league, 1, {}); // both lose: one life each, both still in
    expect(await lives(rollover)).toEqual({ Amy: "Still In:1", Bob: "Still In:1" });
    await w.playMatchDay(league, 2, {}); // both lose their last life
    expect(await lives(rollover)).toEqual({ Amy: "Still In:1", Bob: "Still In:1" });
    expect(await w.competitionRow(rollover)).toMatchObject({ status: "active", current_match_day: 3 });
    const [r] =
      await db.sql`select rolled_over from public.competition_matchday_results where competition_id = ${rollover} and match_day = 2`;
    expect(r.rolled_over).toBe(true);
    expect(await w.memberships(joint)).toEqual({ Amy: "completed", Bob: "completed" });
    expect(await w.competitionRow(joint)).toEqual({
      status: "inactive",
      registration_status: "completed",
      current_match_day: 2,
      knockout_winner: "Amy",
    });
    expect(await lives(joint)).toEqual({ Amy: "Winner:1", Bob: "Winner:1" });
  });
});

describe("auto-pick at the deadline", () => {
  it("picks the eligible team highest in the league's own table (points, goal difference, goals for, name), never a used or planned one", async () => {
    const league = await w.league(3);
    const comp = await knockout(league, ["Amy", "Bob", "Cat", "Dan"], { lives: 3, missed_pick_rule: "auto", created_by: w.ids.Amy });
    await w.pick(comp, "Amy", 1, "T3");
    await w.pick(comp, "Bob", 1, "T1");
    await w.pick(comp, "Cat", 1, "T5");
    await w.pick(comp, "Dan", 1, "T7");
    await w.pick(comp, "Bob", 2, "T7"); // Bob's own pick stands
    await w.pick(comp, "Cat", 3, "T3"); // a plan: T3 is not Cat's to be given on match day 2
    // The table after match day 1: T3 (3 pts, +2, 3 goals), T1 (3, +2, 2), T5 (3, +1), T7 / T8 (1 pt, by name), ...
    await playOnTime(league, 1, { T1: [2, 0], T3: [3, 1], T5: [1, 0], T7: [0, 0] });
    const deadline2 = new Date(kickoff(2).getTime() - HOUR);
    // Before the deadline nothing; from it the scheduler's step auto-picks (nothing is processed: matches pending).
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, new Date(deadline2.getTime() - 60_000));
    expect(await autoPicks(comp)).toEqual([]);
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, new Date(deadline2.getTime() + 60_000));
    expect(await autoPicks(comp)).toEqual(["Amy@2=T1", "Cat@2=T1", "Dan@2=T3"]);
    // Running it again adds nothing.
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, new Date(deadline2.getTime() + 120_000));
    expect(await autoPicks(comp)).toEqual(["Amy@2=T1", "Cat@2=T1", "Dan@2=T3"]);

    // "Auto-picked" wherever picks show: the leaderboard page, the player's row, Manage Selections.
    const board = await asUser(
      db.sql,
      w.ids.Bob,
      (tx) => tx<{ user_username: string; current_selection: string; auto_picked: boolean }[]>`
        select user_username, current_selection, auto_picked from public.knockout_leaderboard_page(${comp}, 0, 10)`,
    );
    expect(board.map((b) => `${b.user_username}:${b.current_selection}:${b.auto_picked}`)).toEqual([
      "Amy:T1:true",
      "Bob:T7:false",
      "Cat:T1:true",
      "Dan:T3:true",
    ]);
    const [mine] = await asUser(
      db.sql,
      w.ids.Dan,
      (tx) => tx`select current_selection, current_selection_auto_picked from public.user_competition_stats_view
                  where competition_id = ${comp} and user_id = ${w.ids.Dan}`,
    );
    expect(mine).toEqual({ current_selection: "T3", current_selection_auto_picked: true });
    const manage = await asUser(db.sql, w.ids.Amy, (tx) => tx`select username, auto_picked from public.manage_selections(${comp})`);
    expect(manage.filter((m) => m.auto_picked).map((m) => m.username)).toEqual(["Amy", "Cat", "Dan"]);

    // An auto-pick counts as the player's pick: Dan's T3 loses and costs him a life (his match day 1 draw cost one).
    await playOnTime(league, 2, { T3: [0, 1] });
    expect(await lives(comp)).toEqual({ Amy: "Still In:3", Bob: "Still In:3", Cat: "Still In:3", Dan: "Still In:1" });
  });

  it("a player with no eligible team left keeps no pick: the missed pick costs a life", async () => {
    const league = await w.league(3);
    const comp = await knockout(league, ["Amy", "Bob"], { lives: 2, missed_pick_rule: "auto" });
    // Match day 2: only T3-T4 is played (the rest postponed), and Amy used T3 and planned T4.
    for (const [md, team] of [
      [1, "T3"],
      [3, "T4"],
    ] as const)
      await w.pick(comp, "Amy", md, team);
    await w.pick(comp, "Bob", 1, "T5");
    await w.pick(comp, "Bob", 2, "T6");
    await playOnTime(league, 1, { T3: [1, 0], T5: [1, 0] });
    await playOnTime(league, 2, { T1: "P", T3: [1, 0], T5: "P", T7: "P" });
    expect(await autoPicks(comp)).toEqual([]);
    const [loss] = await db.sql`select outcome from public.knockout_life_losses where competition_id = ${comp} and user_id = ${w.ids.Amy}`;
    expect(loss).toEqual({ outcome: "no_pick" });
  });
});

/** A match day's results entered on the app clock just after its last kickoff (before the next deadline). */
async function playOnTime(league: string, md: number, scores: Record<string, [number, number] | "P">) {
  const now = new Date(kickoff(md).getTime() + 5 * HOUR);
  // postponements first (before the deadline), then the results
  const homes = ["T1", "T3", "T5", "T7"].sort((a, b) => Number(scores[b] === "P") - Number(scores[a] === "P"));
  for (const home of homes) {
    const id = await w.fixtureId(league, md, home);
    const s = scores[home] ?? [1, 0];
    await w.asAdmin(
      (tx) =>
        s === "P"
          ? tx`select public.set_fixture_postponed(${id}, true, 'x')`
          : tx`select public.save_fixture_result(${id}, ${s[0]}, ${s[1]})`,
      s === "P" ? new Date(kickoff(md).getTime() - 3 * HOUR) : now,
    );
  }
}

async function autoPicks(comp: string): Promise<string[]> {
  const rows = await db.sql<{ s: string }[]>`
    select pn.username || '@' || ts.match_day || '=' || ts.selected_team as s
      from public.team_selections ts join public.player_names pn on pn.id = ts.user_id
     where ts.competition_id = ${comp} and ts.auto_picked order by 1`;
  return rows.map((r) => r.s);
}
