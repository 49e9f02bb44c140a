/**
 * The season joker (rules file "The organiser's rules": once per competition, before its match day's deadline,
 * that match day's points count double, hidden from others until that deadline), "if it ended now" on the same rules
 * (lives, the draw rule, auto-picks, the joker; decisions 022/025/028), and a correction's notice naming lives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { kickoff, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;
const HOUR = 3_600_000;
const NOW = new Date(kickoff(1).getTime() - 48 * HOUR);
const deadline = (md: number) => new Date(kickoff(md).getTime() - HOUR);

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "Bob", "Cat"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

const joker = (name: string, comp: string, md: number | null, now = NOW) =>
  asUser(db.sql, w.ids[name], (tx) => tx<{ r: string }[]>`select public.play_joker(${comp}, ${md}::int) as r`, { now }).then(
    ([{ r }]) => r,
  );
const jokersSeenBy = (name: string, comp: string, now: Date) =>
  asUser(
    db.sql,
    w.ids[name],
    (tx) =>
      tx<{ user_id: string; match_day: number }[]>`select user_id, match_day from public.season_jokers where competition_id = ${comp}`,
    {
      now,
    },
  ).then((rows) => rows.map((r) => `${w.nameOf(r.user_id)}@${r.match_day}`).sort());

describe("the season joker", () => {
  it("is played once, moves or goes back until its match day's deadline, then is spent; only where the organiser turned it on", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "season", ["Amy", "Bob"], { joker: true });
    const off = await w.competition(league, "season", ["Amy"], {});
    const ko = await w.competition(league, "knockout", ["Amy"], {});
    expect(await joker("Amy", comp, 2)).toBe("played");
    expect(await joker("Amy", comp, 3)).toBe("played"); // moved: still one joker
    expect(await jokersSeenBy("Amy", comp, NOW)).toEqual(["Amy@3"]);
    expect(await joker("Amy", comp, null)).toBe("removed");
    expect(await jokersSeenBy("Amy", comp, NOW)).toEqual([]);
    expect(await joker("Amy", comp, 4)).toBe("selection_closed"); // no such match day
    expect(await joker("Amy", comp, 1)).toBe("played");
    const after1 = new Date(deadline(1).getTime() + 60_000);
    expect(await joker("Amy", comp, 2, after1)).toBe("joker_spent");
    expect(await joker("Amy", comp, null, after1)).toBe("joker_spent");
    expect(await joker("Bob", comp, 1, after1)).toBe("selection_closed");
    expect(await joker("Cat", comp, 2)).toBe("not_registered");
    expect(await joker("Amy", off, 2)).toBe("joker_off");
    expect(await joker("Amy", ko, 2)).toBe("not_season");
  });

  it("is hidden from other members until its deadline, and doubles that match day's points", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "season", ["Amy", "Bob"], { joker: true, win_points: 4, draw_points: 2, loss_points: 1 });
    expect(await joker("Amy", comp, 2)).toBe("played");
    expect(await joker("Bob", comp, 1)).toBe("played");
    expect(await jokersSeenBy("Bob", comp, NOW)).toEqual(["Bob@1"]);
    expect(await jokersSeenBy("Bob", comp, new Date(deadline(1).getTime() + 60_000))).toEqual(["Bob@1"]);
    expect(await jokersSeenBy("Bob", comp, new Date(deadline(2).getTime() + 60_000))).toEqual(["Amy@2", "Bob@1"]);
    for (const md of [1, 2]) {
      await w.pick(comp, "Amy", md, "T1"); // md 1: win 4; md 2 (joker): draw 2 x 2
      await w.pick(comp, "Bob", md, "T2"); // md 1 (joker): loss 1 x 2; md 2: draw 2
    }
    await w.playMatchDay(league, 1, { T1: [1, 0] });
    // Match day 2 in play: the provisional table counts Amy's joker.
    const id = await w.fixtureId(league, 2, "T1");
    await w.asAdmin((tx) => tx`select public.set_fixture_live_score(${id}, 1, 1, 'IN_PLAY')`);
    const live = await asUser(
      db.sql,
      w.ids.Bob,
      (tx) => tx<{ username: string; live_points: number; points: number; joker: boolean }[]>`
        select username, live_points, points, joker from public.live_season_table(${comp}, 0, 10)`,
    );
    expect(live).toEqual([
      { username: "Amy", live_points: 4, points: 8, joker: true },
      { username: "Bob", live_points: 2, points: 4, joker: false },
    ]);
    const [line] = await asUser(db.sql, w.ids.Amy, (tx) => tx`select outcome, points from public.if_it_ended_now(${comp})`);
    expect(line).toEqual({ outcome: "draw", points: 4 });
    await w.playMatchDay(league, 2, { T1: [1, 1] });
    const stored = await db.sql`select user_id, points from public.user_selections where competition_id = ${comp} order by points desc`;
    expect(stored.map((s) => [w.nameOf(s.user_id), s.points])).toEqual([
      ["Amy", 8],
      ["Bob", 4],
    ]);
  });
});

describe("if it ended now, with the organiser's rules", () => {
  it("a lost life, a draw that is enough, an auto-pick: in the player's line and the provisional leaderboard", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob", "Cat"], {
      lives: 2,
      draw_rule: "through",
      missed_pick_rule: "auto",
    });
    await w.pick(comp, "Amy", 1, "T2"); // loses 0-1: a life
    await w.pick(comp, "Bob", 1, "T3"); // draws 1-1: enough
    // Cat has no pick: at the deadline she gets the table's first team (no results yet: by name, T1).
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, new Date(deadline(1).getTime() + 60_000));
    const t1 = await w.fixtureId(league, 1, "T1");
    const t3 = await w.fixtureId(league, 1, "T3");
    const inPlay = new Date(kickoff(1).getTime() + 2 * HOUR);
    await w.asAdmin((tx) => tx`select public.set_fixture_live_score(${t1}, 1, 0, 'IN_PLAY')`, inPlay);
    await w.asAdmin((tx) => tx`select public.set_fixture_live_score(${t3}, 1, 1, 'PAUSED')`, inPlay);
    const line = async (name: string) =>
      (
        await asUser(db.sql, w.ids[name], (tx) => tx`select team, outcome, lives_left, auto_picked from public.if_it_ended_now(${comp})`, {
          now: inPlay,
        })
      )[0];
    expect(await line("Amy")).toEqual({ team: "T2", outcome: "life_lost", lives_left: 1, auto_picked: false });
    expect(await line("Bob")).toEqual({ team: "T3", outcome: "through", lives_left: 2, auto_picked: false });
    expect(await line("Cat")).toEqual({ team: "T1", outcome: "through", lives_left: 2, auto_picked: true });
    const board = await asUser(
      db.sql,
      w.ids.Amy,
      (tx) => tx`select username, outcome, lives_left, auto_picked from public.live_knockout_table(${comp}, 0, 10)`,
      { now: inPlay },
    );
    expect(board).toEqual([
      { username: "Amy", outcome: "life_lost", lives_left: 1, auto_picked: false },
      { username: "Bob", outcome: "through", lives_left: 2, auto_picked: false },
      { username: "Cat", outcome: "through", lives_left: 2, auto_picked: true },
    ]);
  });
});

describe("a correction's notice", () => {
  it("names a change of lives", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob"], { lives: 2 });
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "Bob", 1, "T3");
    await w.playMatchDay(league, 1, { T1: [1, 0], T3: [1, 0] });
    expect(await w.score(league, 1, "T1", 0, 1, "Scores were swapped")).toBe("saved");
    const [notice] = await asUser(db.sql, w.ids.Amy, (tx) => tx`select body from public.notices`);
    expect(notice.body).toMatch(/: still in with 1 life left \(was still in with 2 lives left\)\.$/);
  });
});
