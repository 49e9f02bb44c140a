/**
 * The Scout game in the database: FootyCoach and referral tickets, redeeming into entries (limits, lock, the
 * 20-way race), saving predictions (owner, lock, bounds, fixture of the entry's match day), hidden predictions,
 * scoring on result entry (every badge, postponed, idempotent, correction), match-day advance and both
 * leaderboards (order with ties, the season's sum of best entries, a player's pinned row).
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, createCompetition, createFixtures, createPlayer, type Sql } from "../support/factories";
import { asUser, errorCode, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;

const SEASON = "2025/26";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const K1 = new Date("2027-03-06T15:00:00Z"); // first kickoff of match day 1
const K2 = new Date(K1.getTime() + 7 * DAY); // match day 2
const OPEN = new Date(K1.getTime() - 3 * HOUR); // before match day 1's deadline (K1 - 1h)
const LOCKED = new Date(K1.getTime() - HOUR); // at the deadline
const AFTER_GAMES = new Date(K1.getTime() + 6 * HOUR); // results may be entered
const OPEN2 = new Date(K2.getTime() - 3 * HOUR);

let leagueN = 0;
/** A league of its own per test group: two match days of five fixtures (kickoffs K1 / K2 plus hours). */
async function league() {
  const name = `Scout League ${++leagueN}`;
  const teams = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet"];
  const rows = [1, 2].flatMap((md) =>
    [0, 1, 2, 3, 4].map((i) => ({
      matchDay: md,
      kickoff: new Date((md === 1 ? K1 : K2).getTime() + i * HOUR),
      home: teams[(2 * i + md - 1) % 10],
      away: teams[(2 * i + md) % 10],
    })),
  );
  const fixtures = await createFixtures(sql, name, SEASON, rows);
  const md1 = fixtures.filter((f) => f.match_day === 1).map((f) => f.id);
  const md2 = fixtures.filter((f) => f.match_day === 2).map((f) => f.id);
  const competition = await createCompetition(sql, {
    type: "scout",
    league: name,
    season: SEASON,
    startDate: "2027-03-01",
    totalMatchDays: 2,
    registrationStatus: "closed",
  });
  return { name, md1, md2, competitionId: competition.id };
}

const player = async (username: string) => (await createPlayer(sql, { username })).id;

const redeem = (userId: string, competitionId: string, now = OPEN, type: string | null = null, caller = userId) =>
  asUser(
    sql,
    caller,
    async (tx) =>
      (await tx<{ code: string }[]>`select public.redeem_ticket_for_entry(${userId}, ${competitionId}, ${type}) as code`)[0].code,
    { now },
  );

type Pick = { fixture_id: string | number; home_goals: number | null; away_goals: number | null };
const save = (userId: string, entryId: string, picks: Pick[], now = OPEN) =>
  asUser(
    sql,
    userId,
    async (tx) =>
      (await tx<{ code: string }[]>`select public.save_scout_predictions(${entryId}, ${tx.json(picks as postgres.JSONValue)}) as code`)[0]
        .code,
    { now },
  );

const entries = (userId: string, competitionId: string) =>
  sql<{ id: string; match_day: number; entry_index: number; total_points: number; exact_count: number }[]>`
    select id, match_day, entry_index, total_points, exact_count from public.scout_entries
     where user_id = ${userId} and competition_id = ${competitionId} order by match_day, entry_index`;

const state = (userId: string, competitionId: string, now = OPEN) =>
  asUser(
    sql,
    userId,
    async (tx) =>
      (
        await tx<{ footycoach_tickets: number; referral_tickets: number; locked: boolean; current_match_day: number }[]>`
          select * from public.get_scout_state(${competitionId})`
      )[0],
    { now },
  );

async function giveReferralTickets(userId: string, n: number) {
  for (let i = 0; i < n; i++) await sql`insert into public.tickets (user_id, ticket_type) values (${userId}, 'referral')`;
}

let adminId: string;
/** An admin's result; a correction of a complete one carries its reason. */
async function result(fixtureId: string, home: number, away: number, now = AFTER_GAMES) {
  await asUser(sql, adminId, (tx) => tx`select public.save_fixture_result(${fixtureId}, ${home}, ${away}, 'Scout test')`, { now });
}

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
  adminId = (await createAdmin(sql, { username: "scout_admin" })).id;
});

afterAll(async () => {
  await db.close();
});

describe("tickets and redeeming", () => {
  it("grants one FootyCoach ticket per player and active Scout competition, to new players too", async () => {
    const early = await player("early_bird");
    const g = await league();
    const late = await player("late_comer");
    expect((await state(early, g.competitionId)).footycoach_tickets).toBe(1);
    expect((await state(late, g.competitionId)).footycoach_tickets).toBe(1);
  });

  it("redeems FootyCoach first, then referral; entry_index from 0; one free entry per match day", async () => {
    const g = await league();
    const p = await player("redeemer");
    await giveReferralTickets(p, 1);
    expect(await state(p, g.competitionId)).toMatchObject({ footycoach_tickets: 1, referral_tickets: 1 });

    expect(await redeem(p, g.competitionId)).toBe("created");
    expect(await state(p, g.competitionId)).toMatchObject({ footycoach_tickets: 0, referral_tickets: 1 });
    expect(await redeem(p, g.competitionId)).toBe("created");
    expect(await state(p, g.competitionId)).toMatchObject({ footycoach_tickets: 0, referral_tickets: 0 });
    expect(await redeem(p, g.competitionId)).toBe("no_tickets");

    const rows = await entries(p, g.competitionId);
    expect(rows.map((r) => [r.match_day, r.entry_index])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    const spent = await sql<{ ticket_type: string }[]>`
      select t.ticket_type from public.scout_entries e join public.tickets t on t.id = e.ticket_id
       where e.user_id = ${p} order by e.entry_index`;
    expect(spent.map((t) => t.ticket_type)).toEqual(["footycoach", "referral"]);
  });

  it("asks for one type when given, and refuses unknown types with a 4xx-class code", async () => {
    const g = await league();
    const p = await player("picky_redeemer");
    await giveReferralTickets(p, 1);
    expect(await redeem(p, g.competitionId, OPEN, "referral")).toBe("created");
    expect(await state(p, g.competitionId)).toMatchObject({ footycoach_tickets: 1, referral_tickets: 0 });
    expect(await redeem(p, g.competitionId, OPEN, "referral")).toBe("no_tickets");
    expect(await errorCode(redeem(p, g.competitionId, OPEN, "golden"))).toBe("22023");
  });

  it("allows at most 10 entries per player, competition and match day", async () => {
    const g = await league();
    const p = await player("ten_entries");
    await giveReferralTickets(p, 12);
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) codes.push(await redeem(p, g.competitionId));
    expect(codes.slice(0, 10)).toEqual(Array(10).fill("created"));
    expect(codes[10]).toBe("max_entries");
    expect((await entries(p, g.competitionId)).map((e) => e.entry_index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // the refused redeem spent nothing: 12 referral + 1 FootyCoach - 10 used
    expect((await state(p, g.competitionId)).referral_tickets).toBe(3);
  });

  it("refuses after the lock, for someone else, and for a competition that is not an active Scout one", async () => {
    const g = await league();
    const p = await player("late_redeemer");
    const other = await player("other_redeemer");
    expect(await redeem(p, g.competitionId, LOCKED)).toBe("locked");
    expect(await errorCode(redeem(p, g.competitionId, OPEN, null, other))).toBe("42501");
    const knockout = await createCompetition(sql, { type: "knockout", league: g.name, season: SEASON, startDate: "2027-03-01" });
    expect(await redeem(p, knockout.id)).toBe("not_found");
    expect(await entries(p, g.competitionId)).toHaveLength(0);
    expect((await state(p, g.competitionId)).footycoach_tickets).toBe(1);
  });

  itOnRealPostgres("20 concurrent redeems with 3 tickets make exactly 3 entries and spend exactly 3 tickets", async () => {
    const g = await league();
    const p = await player("racer");
    await giveReferralTickets(p, 2);
    const codes = await Promise.all(Array.from({ length: 20 }, () => redeem(p, g.competitionId)));
    expect(codes.filter((c) => c === "created")).toHaveLength(3);
    expect(codes.filter((c) => c === "no_tickets")).toHaveLength(17);
    expect((await entries(p, g.competitionId)).map((e) => e.entry_index)).toEqual([0, 1, 2]);
    const [{ used }] = await sql<{ used: number }[]>`
      select count(*)::int as used from public.tickets where user_id = ${p} and used`;
    expect(used).toBe(3);
  });
});

describe("predictions", () => {
  it("saves a whole entry, updates it, and refuses bad scores, foreign fixtures and other players' entries", async () => {
    const g = await league();
    const p = await player("predictor");
    const other = await player("snooper");
    await redeem(p, g.competitionId);
    const [entry] = await entries(p, g.competitionId);
    const picks = g.md1.map((id, i) => ({ fixture_id: id, home_goals: i, away_goals: 9 - i }));
    expect(await save(p, entry.id, picks)).toBe("saved");
    expect(await save(p, entry.id, [{ fixture_id: Number(g.md1[0]), home_goals: 3, away_goals: 3 }])).toBe("saved");
    const rows = await sql<{ fixture_id: string; home_goals: number; away_goals: number }[]>`
      select fixture_id::text, home_goals, away_goals from public.scout_predictions where scout_entry_id = ${entry.id} order by fixture_id`;
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.fixture_id === g.md1[0])).toMatchObject({ home_goals: 3, away_goals: 3 });

    // all or nothing: one bad element saves none of them
    expect(
      await save(p, entry.id, [
        { fixture_id: g.md1[1], home_goals: 0, away_goals: 0 },
        { fixture_id: g.md1[2], home_goals: 10, away_goals: 0 },
      ]),
    ).toBe("invalid_score");
    expect(await save(p, entry.id, [{ fixture_id: g.md1[1], home_goals: 1, away_goals: null }])).toBe("invalid_score");
    expect(await save(p, entry.id, [{ fixture_id: g.md1[1], home_goals: -1, away_goals: 2 }])).toBe("invalid_score");
    expect(await save(p, entry.id, [{ fixture_id: g.md1[1], home_goals: 1.5, away_goals: 2 }])).toBe("invalid_score");
    expect(await save(p, entry.id, [{ fixture_id: g.md2[0], home_goals: 1, away_goals: 2 }])).toBe("invalid_fixture");
    const [{ home_goals }] = await sql<{ home_goals: number }[]>`
      select home_goals from public.scout_predictions where scout_entry_id = ${entry.id} and fixture_id = ${g.md1[1]}`;
    expect(home_goals).toBe(1);

    expect(await save(other, entry.id, [{ fixture_id: g.md1[1], home_goals: 0, away_goals: 0 }])).toBe("not_found");
    expect(await save(p, entry.id, [{ fixture_id: g.md1[1], home_goals: 0, away_goals: 0 }], LOCKED)).toBe("locked");
  });

  it("hides another player's entries and predictions until the match day locks", async () => {
    const g = await league();
    const p = await player("secretive");
    const other = await player("curious");
    await redeem(p, g.competitionId);
    const [entry] = await entries(p, g.competitionId);
    await save(p, entry.id, [{ fixture_id: g.md1[0], home_goals: 2, away_goals: 1 }]);
    const seen = (now: Date) =>
      asUser(
        sql,
        other,
        async (tx) => {
          const e = await tx`select id from public.scout_entries where id = ${entry.id}`;
          const pr = await tx`select home_goals from public.scout_predictions where scout_entry_id = ${entry.id}`;
          return [e.length, pr.length];
        },
        { now },
      );
    expect(await seen(OPEN)).toEqual([0, 0]);
    expect(await seen(LOCKED)).toEqual([1, 1]);
    // players cannot write the tables directly
    expect(
      await errorCode(
        asUser(sql, p, (tx) => tx`update public.scout_predictions set home_goals = 0 where scout_entry_id = ${entry.id}`, { now: OPEN }),
      ),
    ).toBe("42501");
  });
});

describe("scoring, advance and leaderboards", () => {
  it("scores every badge on result entry, skips postponed, is idempotent and re-scores a correction", async () => {
    const g = await league();
    const p = await player("scorer");
    await redeem(p, g.competitionId);
    const [entry] = await entries(p, g.competitionId);
    // prediction for actual: 0-0 for 0-0 Exact!, 2-0 for 2-1 Stacked, 1-2 for 1-1 Goals, 3-3 for 1-1 Result, 0-1 for 2-0 Miss
    const predicted = [
      [0, 0],
      [2, 0],
      [1, 2],
      [3, 3],
      [0, 1],
    ];
    await save(
      p,
      entry.id,
      g.md1.map((id, i) => ({ fixture_id: id, home_goals: predicted[i][0], away_goals: predicted[i][1] })),
    );
    const actual = [
      [0, 0],
      [2, 1],
      [1, 1],
      [1, 1],
      [2, 0],
    ];
    for (let i = 0; i < 5; i++) await result(g.md1[i], actual[i][0], actual[i][1]);
    const points = async () =>
      (
        await sql<{ points_awarded: number; exact: boolean }[]>`
          select p.points_awarded, p.exact from public.scout_predictions p join public.fixtures f on f.id = p.fixture_id
           where p.scout_entry_id = ${entry.id} order by f.kickoff_time`
      ).map((r) => r.points_awarded);
    expect(await points()).toEqual([5, 3, 2, 1, 0]);
    expect((await entries(p, g.competitionId))[0]).toMatchObject({ total_points: 11, exact_count: 1 });

    // idempotent: the sweep finds nothing to change
    const [{ n }] = await sql<{ n: number }[]>`select public.score_scout_sweep() as n`;
    expect(n).toBe(0);
    expect((await entries(p, g.competitionId))[0]).toMatchObject({ total_points: 11, exact_count: 1 });

    // correction: 2-1 becomes 3-1, so 2-0 keeps only the result (1); the exact 0-0 fixture is postponed (0)
    await result(g.md1[1], 3, 1);
    await asUser(sql, adminId, (tx) => tx`select public.set_fixture_postponed(${g.md1[0]}, true, 'Abandoned')`, { now: AFTER_GAMES });
    expect(await points()).toEqual([0, 1, 2, 1, 0]);
    expect((await entries(p, g.competitionId))[0]).toMatchObject({ total_points: 4, exact_count: 0 });
    const [season] = await sql<{ total_points: number; exact_count: number }[]>`
      select total_points, exact_count from public.scout_season_totals where user_id = ${p}`;
    expect(season).toMatchObject({ total_points: 4, exact_count: 0 });
  });

  it("a CSV upload of results scores in the same transaction, once", async () => {
    const g = await league();
    const p = await player("csv_scored");
    await redeem(p, g.competitionId);
    const [entry] = await entries(p, g.competitionId);
    await save(p, entry.id, [{ fixture_id: g.md1[0], home_goals: 1, away_goals: 0 }]);
    const [f] = await sql<
      { home_team: string; away_team: string }[]
    >`select home_team, away_team from public.fixtures where id = ${g.md1[0]}`;
    const rows = [
      {
        line: 2,
        league: g.name,
        season: SEASON,
        match_day: "1",
        home_team: f.home_team,
        away_team: f.away_team,
        kickoff_time: K1.toISOString(),
        status: "complete",
        home_score: "1",
        away_score: "0",
      },
    ];
    await asUser(sql, adminId, (tx) => tx`select public.upsert_fixtures(${tx.json(rows)})`, { now: AFTER_GAMES });
    expect((await entries(p, g.competitionId))[0]).toMatchObject({ total_points: 5, exact_count: 1 });
  });

  it("moves to the next match day when the current one is finished, with a fresh FootyCoach ticket", async () => {
    const g = await league();
    const p = await player("advancer");
    expect(await redeem(p, g.competitionId)).toBe("created");
    expect((await state(p, g.competitionId)).footycoach_tickets).toBe(0);
    for (const id of g.md1.slice(0, 4)) await result(id, 1, 0);
    expect((await state(p, g.competitionId, AFTER_GAMES)).current_match_day).toBe(1);
    await result(g.md1[4], 0, 0);
    const after = await state(p, g.competitionId, OPEN2);
    expect(after).toMatchObject({ current_match_day: 2, footycoach_tickets: 1, locked: false });
    expect(await redeem(p, g.competitionId, OPEN2)).toBe("created");
    expect((await entries(p, g.competitionId)).map((e) => [e.match_day, e.entry_index])).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });

  it("orders the boards by points, then exact count, then earliest entry (equals share a rank), and sums each player's best entries", async () => {
    const g = await league();
    const [ann, ben, cat] = [await player("ann_scout"), await player("ben_scout"), await player("cat_scout")];
    await sql`update public.profiles set display_name = 'Annie' where id = ${ann}`;
    for (const u of [ann, ben, cat]) await giveReferralTickets(u, 1);
    // entries in creation order: ann#0, ben#0, cat#0, ann#1
    // entries a minute apart (created_at is the application clock)
    const order = [ann, ben, cat, ann];
    for (let i = 0; i < order.length; i++) await redeem(order[i], g.competitionId, new Date(OPEN.getTime() + i * 60_000));
    const e = async (u: string) => await entries(u, g.competitionId);
    const [ann0, ann1] = await e(ann);
    const [ben0] = await e(ben);
    const [cat0] = await e(cat);
    // fixtures end 1-0, 2-2, 0-1, 3-0, 1-1
    const one = (i: number, h: number, a: number) => ({ fixture_id: g.md1[i], home_goals: h, away_goals: a });
    await save(ann, ann0.id, [one(0, 2, 0)]); // Stacked 3
    await save(ann, ann1.id, [one(0, 1, 0)]); // Exact 5
    await save(ben, ben0.id, [one(0, 1, 0)]); // Exact 5, earlier than ann#1
    await save(cat, cat0.id, [one(1, 0, 0), one(2, 1, 2)]); // 0-0 for 2-2 Result 1, 1-2 for 0-1 Result 1: 2
    const finals = [
      [1, 0],
      [2, 2],
      [0, 1],
      [3, 0],
      [1, 1],
    ];
    for (let i = 0; i < 5; i++) await result(g.md1[i], finals[i][0], finals[i][1]);

    const board = await asUser(sql, cat, (tx) => tx`select * from public.get_scout_leaderboard_matchday(${g.name}, ${SEASON}, 1)`, {
      now: AFTER_GAMES,
    });
    expect(board.map((r) => [Number(r.rank), r.display_name, r.total_points, r.exact_count, r.entry_index])).toEqual([
      [1, "ben_scout", 5, 1, 0],
      [1, "Annie", 5, 1, 1], // equal on points and exact count: a shared rank, earliest entry first
      [3, "Annie", 3, 0, 0],
      [4, "cat_scout", 2, 0, 0],
    ]);
    const mine = await asUser(
      sql,
      cat,
      (tx) => tx`select * from public.get_scout_leaderboard_matchday_player(${g.name}, ${SEASON}, 1, ${cat})`,
      { now: AFTER_GAMES },
    );
    expect(mine.map((r) => [Number(r.rank), r.total_points])).toEqual([[4, 2]]);

    // match day 2: ann scores 1 with her only entry; ben none
    await redeem(ann, g.competitionId, OPEN2);
    const ann2 = (await e(ann)).find((x) => x.match_day === 2)!;
    await save(ann, ann2.id, [{ fixture_id: g.md2[0], home_goals: 0, away_goals: 3 }], OPEN2);
    await result(g.md2[0], 1, 2, new Date(K2.getTime() + 3 * HOUR)); // 0-3 for 1-2: result only = 1

    const season = await asUser(sql, cat, (tx) => tx`select * from public.get_scout_leaderboard_season(${g.name}, ${SEASON})`, {
      now: AFTER_GAMES,
    });
    // ann: best of md1 (5, entry 1) + md2 (1, entry 0) = 6, best index of her latest match day = 0
    expect(season.map((r) => [Number(r.rank), r.display_name, r.total_points, r.exact_count, r.best_entry_index])).toEqual([
      [1, "Annie", 6, 1, 0],
      [2, "ben_scout", 5, 1, 0],
      [3, "cat_scout", 2, 0, 0],
    ]);
    const benRow = await asUser(
      sql,
      cat,
      (tx) => tx`select * from public.get_scout_leaderboard_season_player(${g.name}, ${SEASON}, ${ben})`,
    );
    expect(benRow.map((r) => Number(r.rank))).toEqual([2]);
  });

  it("expires unused FootyCoach tickets when the competition closes", async () => {
    const g = await league();
    const p = await player("expiring");
    expect((await state(p, g.competitionId)).footycoach_tickets).toBe(1);
    await sql`update public.competitions set status = 'inactive' where id = ${g.competitionId}`;
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.tickets where user_id = ${p} and target_competition_id = ${g.competitionId} and not used`;
    expect(n).toBe(0);
  });
});
