/**
 * The live match day in SQL (decision 022): the admin's live score (admins only, after kickoff, never a result),
 * "if it ended now" (knockout through / out / roll-over / waiting, season points; the caller's own line only) and
 * the picks per team (hidden before the deadline).
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { BASE, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

/** Match day 1 being played: its deadline (first kickoff - 1 h) has passed and its four matches (an hour apart) have kicked off. */
const PLAYING = new Date(BASE.getTime() + 3.5 * 3_600_000);
const BEFORE_DEADLINE = new Date(BASE.getTime() - 2 * 3_600_000);

async function live(league: string, home: string, h: number | null, a: number | null, status: string | null = "IN_PLAY", now = PLAYING) {
  const id = await w.fixtureId(league, 1, home);
  const [{ r }] = await w.asAdmin(
    (tx) => tx<{ r: string }[]>`select public.set_fixture_live_score(${id}, ${h}, ${a}, ${status}) as r`,
    now,
  );
  return r;
}

type Line = {
  outcome: string;
  team: string | null;
  team_goals: number | null;
  opponent_goals: number | null;
  still_in: number | null;
  remaining: number | null;
  points: number | null;
  in_play: boolean;
};

async function lineOf(name: string, competitionId: string, now = PLAYING): Promise<Line[]> {
  return asUser(
    db.sql,
    w.ids[name],
    (tx: postgres.TransactionSql) => tx<Line[]>`
      select outcome, team, team_goals, opponent_goals, still_in, remaining, points, in_play
        from public.if_it_ended_now(${competitionId}::uuid)`,
    { now },
  );
}

describe("set_fixture_live_score", () => {
  it("admins only, after kickoff, 0..30; a live score is never a result", async () => {
    const league = await w.league(1);
    const id = await w.fixtureId(league, 1, "T1");
    await expect(
      asUser(db.sql, w.ids.Amy, (tx) => tx`select public.set_fixture_live_score(${id}, 1, 0, 'IN_PLAY')`, { now: PLAYING }),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(live(league, "T1", 1, 0, "IN_PLAY", BEFORE_DEADLINE)).rejects.toMatchObject({
      code: "P0001",
      message: "A live score can be entered only after kickoff.",
    });
    await expect(live(league, "T1", 31, 0)).rejects.toMatchObject({ code: "P0001", message: "Scores must be whole numbers from 0 to 30." });
    await expect(live(league, "T1", 1, 0, "FINISHED")).rejects.toMatchObject({ code: "P0001" });

    expect(await live(league, "T1", 2, 1, "PAUSED")).toBe("saved");
    const [f] =
      await db.sql`select status, home_score, live_status, live_home_score, live_away_score from public.fixtures where id = ${id}`;
    expect(f).toEqual({ status: "pending", home_score: null, live_status: "PAUSED", live_home_score: 2, live_away_score: 1 });
    const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.fixture_result_changes where fixture_id = ${id}`;
    expect(n).toBe(0);

    expect(await live(league, "T1", null, null, null)).toBe("saved");
    const [cleared] = await db.sql`select live_status, live_home_score from public.fixtures where id = ${id}`;
    expect(cleared).toEqual({ live_status: null, live_home_score: null });

    // a complete fixture takes no live score
    await w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, 1, 0)`, PLAYING);
    await expect(live(league, "T1", 1, 1)).rejects.toMatchObject({ code: "P0001" });
    const [{ r }] = await w.asAdmin((tx) => tx<{ r: string }[]>`select public.set_fixture_live_score(999999999, 1, 0) as r`, PLAYING);
    expect(r).toBe("not_found");
  });
});

describe("if_it_ended_now", () => {
  it("knockout: through, out (draw, loss, no pick), waiting; then everyone out rolls over", async () => {
    const league = await w.league(1);
    const ko = await w.competition(league, "knockout", ["Amy", "bob", "Cat", "dan"]);
    await w.pick(ko, "Amy", 1, "T1");
    await w.pick(ko, "bob", 1, "T3");
    await w.pick(ko, "Cat", 1, "T5");
    // dan has no pick

    // before the deadline: nothing provisional
    expect(await lineOf("Amy", ko, BEFORE_DEADLINE)).toEqual([]);
    // after it, before any score: every line waits, not in play
    expect((await lineOf("Amy", ko))[0]).toMatchObject({ outcome: "waiting", in_play: false });

    await live(league, "T1", 1, 0);
    await live(league, "T3", 1, 1);
    expect((await lineOf("Amy", ko))[0]).toEqual({
      outcome: "through",
      team: "T1",
      team_goals: 1,
      opponent_goals: 0,
      still_in: 2, // Amy through, Cat not started; bob (draw) and dan (no pick) out
      remaining: 4,
      points: null,
      in_play: true,
    });
    expect((await lineOf("bob", ko))[0]).toMatchObject({ outcome: "out", team_goals: 1, opponent_goals: 1 });
    expect((await lineOf("Cat", ko))[0]).toMatchObject({ outcome: "waiting", team_goals: null });
    expect((await lineOf("dan", ko))[0]).toMatchObject({ outcome: "out", team: null });

    // everyone would go out: nobody does
    await live(league, "T1", 0, 1);
    await live(league, "T5", 0, 2);
    for (const name of ["Amy", "bob", "Cat", "dan"]) {
      expect((await lineOf(name, ko))[0]).toMatchObject({ outcome: "rolled_over", still_in: 4, remaining: 4 });
    }
    // a final result counts as it stands (the live score is gone)
    const id = await w.fixtureId(league, 1, "T1");
    await w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, 3, 0)`, PLAYING);
    expect((await lineOf("Amy", ko))[0]).toMatchObject({ outcome: "through", team_goals: 3, opponent_goals: 0, still_in: 1 });
    // nobody is eliminated by a projection
    const [{ n }] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.user_selections where competition_id = ${ko} and status = 'active'`;
    expect(n).toBe(4);
  });

  it("season: 3 / 1 / 0 points on the picked side; only the caller's own line", async () => {
    const league = await w.league(1);
    const season = await w.competition(league, "season", ["Amy", "bob"]);
    await w.pick(season, "Amy", 1, "T2"); // the away side of T1 v T2
    await w.pick(season, "bob", 1, "T1");
    await live(league, "T1", 1, 0);
    expect(await lineOf("Amy", season)).toEqual([
      expect.objectContaining({ outcome: "loss", points: 0, team: "T2", team_goals: 0, opponent_goals: 1 }),
    ]);
    expect(await lineOf("bob", season)).toEqual([expect.objectContaining({ outcome: "win", points: 3 })]);
    await live(league, "T1", 2, 2);
    expect((await lineOf("Amy", season))[0]).toMatchObject({ outcome: "draw", points: 1 });
    // not a member: nothing
    expect(await lineOf("Cat", season)).toEqual([]);
  });
});

describe("match_day_pick_shares", () => {
  it("no row before the deadline (not even the caller's own pick); shares after it", async () => {
    const league = await w.league(1);
    const ko = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(ko, "Amy", 1, "T1");
    await w.pick(ko, "bob", 1, "T1");
    await w.pick(ko, "Cat", 1, "T3");
    const shares = (now: Date, name = "Amy") =>
      asUser(db.sql, w.ids[name], (tx) => tx`select team, picks, share, total from public.match_day_pick_shares(${ko})`, { now });
    expect(await shares(BEFORE_DEADLINE)).toEqual([]);
    expect(await shares(PLAYING)).toEqual([
      { team: "T1", picks: 2, share: 67, total: 3 },
      { team: "T3", picks: 1, share: 33, total: 3 },
    ]);
    // a player who is not a member sees nothing
    expect(await shares(PLAYING, "dan")).toEqual([]);
  });
});
