/**
 * The live match day's provisional tables in SQL (decision 022, addendum): the knockout's provisional leaderboard
 * (through / out / roll-over, the order after processing), the season's provisional table with rank changes,
 * provisional Scout points per entry and the provisional Scout board (private.scout_points on the live score), a
 * knockout player's route (teams used, teams still available) under the hidden-picks rule; all of them only while
 * the match day is played and only to those who may see its picks.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScoutCompetition } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";
import { BASE, SEASON, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan", "Eve", "Fay"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

/** Match day 1 being played: its deadline has passed and its four matches (an hour apart) have kicked off. */
const PLAYING = new Date(BASE.getTime() + 3.5 * 3_600_000);
const BEFORE_DEADLINE = new Date(BASE.getTime() - 2 * 3_600_000);

async function live(league: string, home: string, h: number | null, a: number | null, status: string | null = "IN_PLAY") {
  const id = await w.fixtureId(league, 1, home);
  await w.asAdmin((tx) => tx`select public.set_fixture_live_score(${id}, ${h}, ${a}, ${status})`, PLAYING);
}

function as<T extends readonly object[]>(name: string, q: (tx: postgres.TransactionSql) => Promise<T>, now = PLAYING): Promise<T> {
  return asUser(db.sql, w.ids[name], q, { now });
}

type KoRow = { username: string; outcome: string; team: string | null; knocked_out_on: number | null; position: number; still_in: number };
const koTable = (name: string, competitionId: string, now = PLAYING, offset = 0, limit = 10) =>
  as(
    name,
    (tx) => tx<KoRow[]>`
      select username, outcome, team, knocked_out_on, position, still_in
        from public.live_knockout_table(${competitionId}, ${offset}, ${limit})`,
    now,
  );

describe("live_knockout_table", () => {
  it("who would go through and who would be out, in the order after processing; everyone out rolls over", async () => {
    const league = await w.league(3);
    const ko = await w.competition(league, "knockout", ["Amy", "bob", "Cat", "dan", "Eve"]);
    // Eve was knocked out on an earlier match day (stored as the processing would)
    await db.sql`update public.user_selections set status = 'eliminated', knocked_out_on = 1 where competition_id = ${ko} and user_id = ${w.ids.Eve}`;
    await w.pick(ko, "Amy", 1, "T1");
    await w.pick(ko, "bob", 1, "T3");
    await w.pick(ko, "Cat", 1, "T5");
    // dan: no pick

    // before the deadline, and after it before any match is in play: nothing provisional
    expect(await koTable("Amy", ko, BEFORE_DEADLINE)).toEqual([]);
    expect(await koTable("Amy", ko)).toEqual([]);

    await live(league, "T1", 1, 0);
    await live(league, "T3", 0, 0);
    expect((await koTable("Amy", ko)).map((r) => [r.username, r.outcome, r.team, r.knocked_out_on, r.position])).toEqual([
      ["Amy", "through", "T1", null, 1],
      ["Cat", "waiting", "T5", null, 2],
      ["bob", "out", "T3", 1, 3],
      ["dan", "out", null, 1, 4],
      ["Eve", "eliminated", null, 1, 5],
    ]);
    expect((await koTable("Amy", ko))[0].still_in).toBe(2);
    // a page of it
    expect((await koTable("Amy", ko, PLAYING, 2, 2)).map((r) => [r.username, r.position])).toEqual([
      ["bob", 3],
      ["dan", 4],
    ]);
    // a player who is not a member sees nothing (the hidden-picks rule)
    expect(await koTable("Fay", ko)).toEqual([]);

    // everyone still in would go out: nobody does (roll-over), all four stay ahead of Eve
    await live(league, "T1", 0, 1);
    await live(league, "T5", 0, 2);
    expect((await koTable("bob", ko)).map((r) => [r.username, r.outcome])).toEqual([
      ["Amy", "rolled_over"],
      ["bob", "rolled_over"],
      ["Cat", "rolled_over"],
      ["dan", "rolled_over"],
      ["Eve", "eliminated"],
    ]);
    expect((await koTable("bob", ko))[0].still_in).toBe(4);

    // the match day processed (every result in): the provisional table is gone
    await w.playMatchDay(league, 1, { T1: [2, 0], T3: [1, 1], T5: [0, 1] });
    expect(await koTable("Amy", ko)).toEqual([]);
  });
});

type SeasonRow = {
  username: string;
  points: number;
  rank: number;
  rank_before: number | null;
  live_points: number | null;
  team: string | null;
};
const seasonTable = (name: string, competitionId: string, now = PLAYING) =>
  as(
    name,
    (tx) => tx<SeasonRow[]>`
      select username, points, rank, rank_before, live_points, team from public.live_season_table(${competitionId})`,
    now,
  );

describe("live_season_table", () => {
  it("adds the live picks to the stored standings and ranks them, with the rank each player had before", async () => {
    const league = await w.league(3);
    const season = await w.competition(league, "season", ["Amy", "bob", "Cat"]);
    // match day 1 played out: Amy 3 (T1 wins), bob 1 (T3 draws), Cat 0 (T6 loses)
    await w.pick(season, "Amy", 1, "T1");
    await w.pick(season, "bob", 1, "T3");
    await w.pick(season, "Cat", 1, "T6");
    await w.playMatchDay(league, 1, { T1: [1, 0], T3: [1, 1], T5: [1, 0] });
    // match day 2: Cat's T5 is winning 2-0, Amy's T2 is losing, bob has no pick
    const md2 = new Date(BASE.getTime() + 7 * 24 * 3_600_000 + 3.5 * 3_600_000);
    await w.pick(season, "Amy", 2, "T2");
    await w.pick(season, "Cat", 2, "T5");
    expect(await seasonTable("Amy", season, md2)).toEqual([]); // nothing in play yet
    const live2 = async (home: string, h: number, a: number) => {
      const id = await w.fixtureId(league, 2, home);
      await w.asAdmin((tx) => tx`select public.set_fixture_live_score(${id}, ${h}, ${a}, 'IN_PLAY')`, md2);
    };
    await live2("T5", 2, 0);
    await live2("T1", 1, 0);
    // Cat 3 points, goal difference +1 (0-1, then 2-0) passes Amy 3 points, +0 (1-0, then 0-1); bob 1
    expect(await seasonTable("Amy", season, md2)).toEqual([
      { username: "Cat", points: 3, rank: 1, rank_before: 3, live_points: 3, team: "T5" },
      { username: "Amy", points: 3, rank: 2, rank_before: 1, live_points: 0, team: "T2" },
      { username: "bob", points: 1, rank: 3, rank_before: 2, live_points: null, team: null },
    ]);
    // Amy's T2 equalises: a draw, 4 points, back on top
    await live2("T1", 1, 1);
    expect((await seasonTable("bob", season, md2)).map((r) => [r.username, r.points, r.rank, r.rank_before])).toEqual([
      ["Amy", 4, 1, 1],
      ["Cat", 3, 2, 3],
      ["bob", 1, 3, 2],
    ]);
    // the stored standings did not move
    const stored = await db.sql<{ points: number }[]>`
      select points from public.user_selections where competition_id = ${season} order by points desc`;
    expect(stored.map((r) => r.points)).toEqual([3, 1, 0]);
    // not a member: nothing; before match day 2's deadline: nothing
    expect(await seasonTable("dan", season, md2)).toEqual([]);
    expect(await seasonTable("Amy", season, new Date(md2.getTime() - 6 * 3_600_000))).toEqual([]);
  });
});

describe("live_scout_board", () => {
  it("provisional points per entry: stored points plus private.scout_points on the live score; ranked; only while in play", async () => {
    const league = await w.league(1);
    const scout = await createScoutCompetition(db.sql, { league, season: SEASON, startMatchDay: 1, totalMatchDays: 1 });
    const entry = async (name: string, picks: [string, number, number][]) => {
      const [{ id }] = await db.sql<{ id: string }[]>`
        insert into public.scout_entries (competition_id, user_id, match_day, entry_index)
        values (${scout.id}, ${w.ids[name]}, 1, 0) returning id`;
      for (const [home, h, a] of picks) {
        await db.sql`insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
                     values (${id}, ${await w.fixtureId(league, 1, home)}, ${h}, ${a})`;
      }
      return id;
    };
    await entry("Amy", [
      ["T1", 1, 0],
      ["T3", 2, 2],
    ]);
    await entry("bob", [["T1", 2, 0]]);
    await entry("Cat", [["T3", 0, 1]]);
    type Row = { display_name: string; rank: number; total_points: number; exact_count: number; live_points: number; mine: boolean };
    const board = (name: string, now = PLAYING) =>
      as(
        name,
        (tx) => tx<Row[]>`
          select display_name, rank, total_points, exact_count, live_points, mine
            from public.live_scout_board(${league}, ${SEASON}, 1, 2)`,
        now,
      );
    expect(await board("Amy")).toEqual([]); // nothing in play
    await live(league, "T1", 1, 0);
    expect(await board("Amy", BEFORE_DEADLINE)).toEqual([]);
    // Amy exact 5; bob 2-0 for 1-0: the away goals and the result, 3; Cat nothing live
    expect(await board("Cat")).toEqual([
      { display_name: "Amy", rank: 1, total_points: 5, exact_count: 1, live_points: 5, mine: false },
      { display_name: "bob", rank: 2, total_points: 3, exact_count: 0, live_points: 3, mine: false },
      // the caller's own entry, beyond the limit of 2
      { display_name: "Cat", rank: 3, total_points: 0, exact_count: 0, live_points: 0, mine: true },
    ]);
    // T3 ends 2-2 (scored for real, stored on the entries), T1 still live: Amy 5 stored + 5 live
    await w.score(league, 1, "T3", 2, 2);
    const [amy] = await board("Amy");
    expect(amy).toEqual({ display_name: "Amy", rank: 1, total_points: 10, exact_count: 2, live_points: 5, mine: true });
    // the stored points count only the complete match
    const [{ total_points }] = await db.sql<{ total_points: number }[]>`
      select total_points from public.scout_entries where user_id = ${w.ids.Amy} and competition_id = ${scout.id}`;
    expect(total_points).toBe(5);
    // the live score cleared: no provisional board
    await live(league, "T1", null, null, null);
    expect(await board("Amy")).toEqual([]);
  });
});

describe("the provisional tables are computed once per change and shared (decision 025)", () => {
  const cached = async (competitionId: string) => {
    const [row] = await db.sql<{ version: string; xmin: string; rows: number }[]>`
      select k.version::text, (select min(r.xmin::text) from private.live_knockout_rows r where r.competition_id = k.competition_id) as xmin,
             (select count(*)::int from private.live_knockout_rows r where r.competition_id = k.competition_id) as rows
        from private.live_table_cache k where k.competition_id = ${competitionId}`;
    return row ?? null;
  };

  it("repeated calls read the stored table; a score change, a pick or a membership change makes the next call compute it again", async () => {
    const league = await w.league(3);
    const ko = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(ko, "Amy", 1, "T1");
    await w.pick(ko, "bob", 1, "T3");
    await live(league, "T1", 1, 0);
    expect(await cached(ko)).toBeNull(); // nothing computed before a reader asks
    const first = (await koTable("Amy", ko)).map((r) => [r.username, r.outcome]);
    expect(first).toEqual([
      ["Amy", "through"],
      ["bob", "waiting"],
      ["Cat", "out"],
    ]);
    const stored = await cached(ko);
    expect(stored?.rows).toBe(3);
    // other readers, other pages: the same stored rows (not written again)
    await koTable("bob", ko);
    await koTable("Cat", ko, PLAYING, 1, 1);
    expect(await cached(ko)).toEqual(stored);

    // a goal: the live version moves on in the same transaction; the next reader computes the new table
    await live(league, "T3", 0, 1);
    const afterGoal = await koTable("Cat", ko);
    expect(afterGoal.map((r) => [r.username, r.outcome])).toEqual([
      ["Amy", "through"],
      ["bob", "out"],
      ["Cat", "out"],
    ]);
    const recomputed = await cached(ko);
    expect(BigInt(recomputed.version)).toBeGreaterThan(BigInt(stored.version));
    expect(recomputed.xmin).not.toBe(stored.xmin);

    // a membership written after the deadline (an admin removes Cat): computed again without her
    await db.sql`delete from public.user_selections where competition_id = ${ko} and user_id = ${w.ids.Cat}`;
    expect((await koTable("Amy", ko)).map((r) => r.username)).toEqual(["Amy", "bob"]);
    // a pick changed after the deadline (an admin's correction): bob's pick is now T1, through
    await db.sql`update public.team_selections set selected_team = 'T1', fixture_id = ${await w.fixtureId(league, 1, "T1")}
                  where competition_id = ${ko} and user_id = ${w.ids.bob} and match_day = 1`;
    expect((await koTable("Amy", ko)).map((r) => [r.username, r.outcome])).toEqual([
      ["Amy", "through"],
      ["bob", "through"],
    ]);
  });

  it("two callers with different visibility: the stored table reaches only those who may see it; Scout's own entries per caller", async () => {
    const league = await w.league(3);
    const ko = await w.competition(league, "knockout", ["Amy", "bob"]);
    const season = await w.competition(league, "season", ["Amy", "bob"]);
    for (const c of [ko, season]) {
      await w.pick(c, "Amy", 1, "T1");
      await w.pick(c, "bob", 1, "T4");
    }
    await live(league, "T1", 2, 0);
    // a member computes and stores both tables
    expect((await koTable("Amy", ko)).map((r) => r.username)).toEqual(["Amy", "bob"]);
    expect((await seasonTable("Amy", season)).map((r) => [r.username, r.points])).toEqual([
      ["Amy", 3],
      ["bob", 0],
    ]);
    expect(await cached(ko)).not.toBeNull();
    // they are stored, yet a player who is not a member still gets nothing, nor a member before the deadline
    expect(await koTable("Fay", ko)).toEqual([]);
    expect(await seasonTable("Fay", season)).toEqual([]);
    expect(await koTable("bob", ko, BEFORE_DEADLINE)).toEqual([]);
    expect(await seasonTable("bob", season, BEFORE_DEADLINE)).toEqual([]);
    // and the second member gets the same rows as the first
    expect(await koTable("bob", ko)).toEqual(await koTable("Amy", ko));

    // Scout: one stored board; "mine" and the caller's own entries beyond the limit are per caller
    const scout = await createScoutCompetition(db.sql, { league, season: SEASON, startMatchDay: 1, totalMatchDays: 1 });
    for (const [name, h] of [
      ["Amy", 2],
      ["bob", 1],
      ["Cat", 0],
    ] as const) {
      const [{ id }] = await db.sql<{ id: string }[]>`
        insert into public.scout_entries (competition_id, user_id, match_day, entry_index)
        values (${scout.id}, ${w.ids[name]}, 1, 0) returning id`;
      await db.sql`insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
                   values (${id}, ${await w.fixtureId(league, 1, "T1")}, ${h}, 0)`;
    }
    type Row = { display_name: string; mine: boolean };
    const board = (name: string, now = PLAYING) =>
      as(name, (tx) => tx<Row[]>`select display_name, mine from public.live_scout_board(${league}, ${SEASON}, 1, 1)`, now);
    expect(await board("Amy")).toEqual([{ display_name: "Amy", mine: true }]);
    expect(await board("Cat")).toEqual([
      { display_name: "Amy", mine: false },
      { display_name: "Cat", mine: true },
    ]);
    expect(await board("Fay")).toEqual([{ display_name: "Amy", mine: false }]);
    expect(await board("Cat", BEFORE_DEADLINE)).toEqual([]);
    const [{ n }] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from private.live_scout_rows r join private.live_scout_cache k on k.board_id = r.board_id
       where k.league = ${league} and k.season = ${SEASON} and k.match_day = 1`;
    expect(n).toBe(3);
    // 1-0 now: bob's prediction is exact (5) and tops the board, for every caller
    await live(league, "T1", 1, 0);
    expect(await board("Fay")).toEqual([{ display_name: "bob", mine: false }]);
  });

  it("concurrent readers after a change: one computes, the other waits and reads what it stored", async () => {
    const league = await w.league(3);
    const ko = await w.competition(league, "knockout", ["Amy", "bob"]);
    await w.pick(ko, "Amy", 1, "T1");
    await live(league, "T1", 1, 0);
    const first = db.sql.reserve();
    const second = db.sql.reserve();
    const [a, b] = await Promise.all([first, second]);
    try {
      const begin = async (c: postgres.ReservedSql, name: string) => {
        await c`begin`;
        await c`select set_config('request.jwt.claims', ${JSON.stringify({ sub: w.ids[name], role: "authenticated" })}, true),
                       set_config('app.now', ${PLAYING.toISOString()}, true), set_config('role', 'authenticated', true)`;
      };
      await begin(a, "Amy");
      await begin(b, "bob");
      const rowsA = await a`select username from public.live_knockout_table(${ko}, 0, 10)`;
      const [{ xid }] = await a<{ xid: string }[]>`select pg_current_xact_id()::text as xid`;
      // bob's reader waits on Amy's transaction (the advisory lock), then finds the table stored
      const pending = b`select username from public.live_knockout_table(${ko}, 0, 10)`.then((r) => r);
      await new Promise((r) => setTimeout(r, 300));
      await a`commit`;
      const rowsB = await pending;
      await b`commit`;
      expect(rowsB.map((r) => r.username)).toEqual(rowsA.map((r) => r.username));
      // written once, by Amy's transaction
      const xmins = await db.sql<{ xmin: string }[]>`
        select distinct xmin::text as xmin from private.live_knockout_rows where competition_id = ${ko}`;
      expect(xmins.map((x) => x.xmin)).toEqual([xid]);
    } finally {
      a.release();
      b.release();
    }
  });
});

describe("knockout_route", () => {
  it("teams used (with the match day) and still available; another player's pick only after its deadline; members only", async () => {
    const league = await w.league(3);
    const ko = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(ko, "Amy", 1, "T1");
    await w.pick(ko, "bob", 1, "T3");
    await w.pick(ko, "Cat", 1, "T5");
    await w.playMatchDay(league, 1, {}); // every home side wins: all three through, match day 2 is current
    expect((await w.competitionRow(ko)).current_match_day).toBe(2);
    await w.pick(ko, "Amy", 2, "T3");

    type Route = { team: string; match_day: number | null; used: boolean };
    const route = (viewer: string, now: Date) =>
      as(viewer, (tx) => tx<Route[]>`select team, match_day, used from public.knockout_route(${ko}, ${w.ids.Amy})`, now);
    const md2 = BASE.getTime() + 7 * 24 * 3_600_000;
    const beforeMd2 = new Date(md2 - 2 * 3_600_000);
    const afterMd2 = new Date(md2 + 3_600_000);
    const used = (rows: Route[]) => rows.filter((r) => r.used).map((r) => `${r.team}@${r.match_day}`);
    const available = (rows: Route[]) => rows.filter((r) => !r.used).map((r) => r.team);

    // her own route: both picks, the rest available from match day 2 (still open) on
    const own = await route("Amy", beforeMd2);
    expect(used(own)).toEqual(["T1@1", "T3@2"]);
    expect(available(own)).toEqual(["T2", "T4", "T5", "T6", "T7", "T8"]);
    // another member before match day 2's deadline: her match day 2 pick is hidden
    expect(used(await route("bob", beforeMd2))).toEqual(["T1@1"]);
    // after it: shown; available from match day 3 on
    const after = await route("bob", afterMd2);
    expect(used(after)).toEqual(["T1@1", "T3@2"]);
    expect(available(after)).toEqual(["T2", "T4", "T5", "T6", "T7", "T8"]);
    // not a member: nothing at all
    expect(await route("dan", afterMd2)).toEqual([]);
  });
});
