/**
 * Admin SQL API: refusals for players, score validation, admin_create_competition, the CSV upsert (per-row
 * validation, nothing half-written, processing after complete rows) and the leaderboard page functions.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { kickoff, SEASON, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan", "Eve", "fay"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

const DENIED = { code: "42501", message: "Access denied. Admins only." };

describe("players are refused", () => {
  it("every admin function answers 42501 'Access denied. Admins only.' to a player", async () => {
    const league = await w.league(1);
    const id = await w.fixtureId(league, 1, "T1");
    const calls = [
      (tx: postgres.TransactionSql) => tx`select public.save_fixture_result(${id}, 1, 0)`,
      (tx: postgres.TransactionSql) => tx`select public.set_fixture_postponed(${id}, true)`,
      (tx: postgres.TransactionSql) => tx`select public.process_due_matchdays()`,
      (tx: postgres.TransactionSql) =>
        tx`select public.admin_create_competition('X', 'knockout', 'Premier League', '2025/26', '2026-07-01', 1)`,
      (tx: postgres.TransactionSql) => tx`select public.upsert_fixtures('[]'::jsonb)`,
    ];
    for (const call of calls) {
      await expect(asUser(db.sql, w.ids.Amy, call)).rejects.toMatchObject(DENIED);
    }
    const [f] = await db.sql`select status, home_score from public.fixtures where id = ${id}`;
    expect(f).toEqual({ status: "pending", home_score: null });
  });

  it("scores outside 0..30 are refused with the spec message; unknown fixtures answer not_found", async () => {
    const league = await w.league(1);
    const id = await w.fixtureId(league, 1, "T1");
    for (const [h, a] of [
      [31, 0],
      [0, -1],
      [null, 1],
    ]) {
      await expect(w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, ${h}, ${a})`)).rejects.toMatchObject({
        code: "P0001",
        message: "Scores must be whole numbers from 0 to 30.",
      });
    }
    const [{ r }] = await w.asAdmin((tx) => tx<{ r: string }[]>`select public.save_fixture_result(999999999, 1, 1) as r`);
    expect(r).toBe("not_found");
    expect(await w.score(league, 1, "T1", 30, 0)).toBe("saved");
    const [f] = await db.sql`select status, home_score, away_score, result from public.fixtures where id = ${id}`;
    expect(f).toEqual({ status: "complete", home_score: 30, away_score: 0, result: "home_win" });
  });
});

describe("admin_create_competition", () => {
  const NOW = new Date(kickoff(1).getTime() - 5 * 24 * 3_600_000);
  const today = NOW.toISOString().slice(0, 10);
  const create = (args: unknown[]) =>
    w.asAdmin(
      (tx) => tx<{ id: string }[]>`select public.admin_create_competition(${args[0] as string}, ${args[1] as string},
      ${args[2] as string}, ${args[3] as string}, ${args[4] as string}, ${args[5] as number}, ${(args[6] ?? null) as string}) as id`,
      NOW,
    );

  it("creates a public, open competition at its start match day", async () => {
    await db.sql`insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
                 values ('Serie A', '2025', 1, ${kickoff(1)}, 'Inter', 'Milan')`;
    const [{ id }] = await create(["  Admin Cup ", "season", "Serie A", "2025", today, 1, "A signed ball"]);
    const [c] = await db.sql`select name, type, league, season, visibility, status, registration_status,
                                    start_match_day, current_match_day, prize, created_by, registration_key
                               from public.competitions where id = ${id}`;
    expect(c).toEqual({
      name: "Admin Cup",
      type: "season",
      league: "Serie A",
      season: "2025",
      visibility: "public",
      status: "active",
      registration_status: "open",
      start_match_day: 1,
      current_match_day: 1,
      prize: "A signed ball",
      created_by: w.admin,
      registration_key: null,
    });
  });

  const bad: [string, unknown[], string][] = [
    ["missing field", ["", "knockout", "Serie A", "2025", today, 1], "Please fill in all required fields."],
    ["past start date", ["Old Cup", "knockout", "Serie A", "2025", "2026-01-01", 1], "Start date must be today or a future date."],
    [
      "match day without fixtures",
      ["Far Cup", "knockout", "Serie A", "2025", today, 9],
      "Start Match Day must be a match day that has not started yet.",
    ],
    [
      "duplicate name and type",
      ["admin cup", "season", "Serie A", "2025", today, 1],
      "A competition with this name and type already exists.",
    ],
  ];
  for (const [name, args, message] of bad) {
    it(`refuses: ${name}`, async () => {
      await expect(create(args)).rejects.toMatchObject({ code: "P0001", message });
    });
  }
});

type Upsert = { succeeded: number; failed: { line: number; reason: string }[] };

describe("upsert_fixtures (CSV)", () => {
  const upsert = (rows: unknown) =>
    w.asAdmin((tx) => tx<{ r: Upsert }[]>`select public.upsert_fixtures(${tx.json(rows as never)}) as r`).then((x) => x[0].r);
  const row = (line: number, extra: Record<string, unknown> = {}) => ({
    line,
    league: "CSV League",
    season: SEASON,
    match_day: "1",
    home_team: `H${line}`,
    away_team: `A${line}`,
    kickoff_time: "2026-08-01 15:00",
    status: "",
    ...extra,
  });

  it("saves good rows, reports bad rows with line and reason, never half-saves", async () => {
    const result = await upsert([
      row(2),
      row(3, { status: "complete", home_score: "2", away_score: "1" }),
      row(4, { league: "" }),
      row(5, { match_day: "zero" }),
      row(6, { away_team: "H6" }),
      row(7, { kickoff_time: "tomorrow-ish" }),
      row(8, { status: "abandoned" }),
      row(9, { status: "complete", home_score: "31", away_score: "0" }),
      row(10, { status: "complete", home_score: "1" }),
      row(11, { home_score: "1", away_score: "1" }),
      row(12, { id: "987654321" }),
      row(13, { status: "postponed", home_score: "", away_score: "" }),
    ]);
    expect(result).toEqual({
      succeeded: 3,
      failed: [
        { line: 4, reason: "Missing required field: league." },
        { line: 5, reason: "match_day must be a whole number from 1." },
        { line: 6, reason: "home_team and away_team must be different." },
        { line: 7, reason: "kickoff_time is not a valid date and time." },
        { line: 8, reason: "status must be pending, complete or postponed." },
        { line: 9, reason: "Scores must be whole numbers from 0 to 30." },
        { line: 10, reason: "A complete fixture needs both scores." },
        { line: 11, reason: "Only a complete fixture can have scores." },
        { line: 12, reason: "No fixture with id 987654321." },
      ],
    });
    const rows = await db.sql`select home_team, status, home_score, away_score, result, kickoff_time
                                from public.fixtures where league = 'CSV League' order by home_team`;
    expect(rows).toEqual([
      {
        home_team: "H13",
        status: "postponed",
        home_score: null,
        away_score: null,
        result: null,
        kickoff_time: new Date("2026-08-01T15:00:00Z"),
      },
      {
        home_team: "H2",
        status: "pending",
        home_score: null,
        away_score: null,
        result: null,
        kickoff_time: new Date("2026-08-01T15:00:00Z"),
      },
      {
        home_team: "H3",
        status: "complete",
        home_score: 2,
        away_score: 1,
        result: "home_win",
        kickoff_time: new Date("2026-08-01T15:00:00Z"),
      },
    ]);
  });

  it("upserts on the natural key and on id; a unique clash is one failed row", async () => {
    const first = await upsert([row(2, { home_team: "X", away_team: "Y" }), row(3, { home_team: "Z", away_team: "W" })]);
    expect(first.succeeded).toBe(2);
    const again = await upsert([row(2, { home_team: "X", away_team: "Y", kickoff_time: "2026-08-02T12:00:00+02:00" })]);
    expect(again).toEqual({ succeeded: 1, failed: [] });
    const [{ id, kickoff_time }] = await db.sql`select id, kickoff_time from public.fixtures
                                                 where league = 'CSV League' and home_team = 'X'`;
    expect(kickoff_time).toEqual(new Date("2026-08-02T10:00:00Z"));
    const byId = await upsert([
      row(5, { id: String(id), home_team: "X", away_team: "Y", match_day: "2" }),
      row(6, { id: String(id), home_team: "Z", away_team: "W", match_day: "1" }), // clashes with Z-W on day 1
    ]);
    expect(byId).toEqual({
      succeeded: 1,
      failed: [{ line: 6, reason: "Another fixture already has these teams on this match day." }],
    });
    const [moved] = await db.sql`select match_day, home_team from public.fixtures where id = ${id}`;
    expect(moved).toEqual({ match_day: 2, home_team: "X" });
  });

  it("complete rows process the match day like save_fixture_result", async () => {
    const league = await w.league(1);
    const comp = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T2");
    await w.pick(comp, "Cat", 1, "T3");
    const rows = [
      ["T1", "T2", 2, 0],
      ["T3", "T4", 1, 0],
      ["T5", "T6", 0, 0],
      ["T7", "T8", 0, 1],
    ].map(([h, a, hs, as], i) =>
      row(i + 2, {
        league,
        home_team: h,
        away_team: a,
        status: "complete",
        home_score: String(hs),
        away_score: String(as),
        kickoff_time: kickoff(1).toISOString(),
      }),
    );
    expect(await upsert(rows)).toEqual({ succeeded: 4, failed: [] });
    expect(await w.memberships(comp)).toEqual({ Amy: "active", bob: "eliminated@1", Cat: "active" });
    expect(await w.processed(comp)).toEqual([1]);
    // A corrected CSV re-processes; correcting a complete result needs a reason (a `reason` cell).
    expect(await upsert([{ ...rows[0], home_score: "0", away_score: "2" }])).toEqual({
      succeeded: 0,
      failed: [{ line: 2, reason: "A reason is required to correct a result." }],
    });
    expect(await w.memberships(comp)).toEqual({ Amy: "active", bob: "eliminated@1", Cat: "active" });
    expect(await upsert([{ ...rows[0], home_score: "0", away_score: "2", reason: "Home and away swapped" }])).toEqual({
      succeeded: 1,
      failed: [],
    });
    expect(await w.memberships(comp)).toEqual({ Amy: "eliminated@1", bob: "active", Cat: "active" });
  });
});

describe("leaderboard pages", () => {
  it("knockout pages follow the view's order and positions", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "knockout", ["fay", "Eve", "dan", "Cat", "bob", "Amy"]);
    await w.pick(comp, "Amy", 1, "T1");
    await w.pick(comp, "bob", 1, "T1");
    await w.pick(comp, "Cat", 1, "T1");
    await w.pick(comp, "dan", 1, "T1");
    await w.pick(comp, "Eve", 1, "T2");
    await w.playMatchDay(league, 1, {}); // Eve and fay out on 1
    await w.pick(comp, "Amy", 2, "T3");
    await w.pick(comp, "bob", 2, "T3");
    await w.pick(comp, "Cat", 2, "T4");
    await w.playMatchDay(league, 2, {}); // Cat and dan out on 2; Amy and bob: winners (match days ran out? no: total 3)
    const view = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx<{ user_username: string; status: string; position: number }[]>`
      select user_username, status, knocked_out_on, position from public.knockout_leaderboard_view
       where competition_id = ${comp} order by position`,
    );
    expect(view.map((r) => r.user_username)).toEqual(["Amy", "bob", "Cat", "dan", "Eve", "fay"]);
    const page1 = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx`
      select user_username, status, knocked_out_on, position from public.knockout_leaderboard_page(${comp}, 0, 4)`,
    );
    const page2 = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx`
      select user_username, status, knocked_out_on, position from public.knockout_leaderboard_page(${comp}, 4, 4)`,
    );
    expect([...page1, ...page2]).toEqual(view);
    for (const r of view) {
      const [{ p }] = await asUser(
        db.sql,
        w.ids.Eve,
        (tx) => tx<{ p: number }[]>`
        select public.knockout_leaderboard_position(${comp}, ${w.ids[r.user_username]}) as p`,
      );
      expect(p).toBe(r.position);
    }
    const [{ none }] = await asUser(
      db.sql,
      w.ids.Eve,
      (tx) => tx<{ none: number | null }[]>`
      select public.knockout_leaderboard_position(${comp}, ${w.ids.Boss}) as none`,
    );
    expect(none).toBeNull();
  });

  it("season position matches the page", async () => {
    const league = await w.league(1);
    const comp = await w.competition(league, "season", ["Amy", "bob", "Cat", "dan"]);
    await w.pick(comp, "dan", 1, "T1");
    await w.pick(comp, "Cat", 1, "T1");
    await w.pick(comp, "bob", 1, "T4");
    await w.playMatchDay(league, 1, {});
    const page = await asUser(
      db.sql,
      w.ids.Amy,
      (tx) => tx<{ username: string; rank: number; position: number }[]>`
      select username, rank, position from public.season_leaderboard_page(${comp}, 0, 10)`,
    );
    expect(page).toEqual([
      { username: "Cat", rank: 1, position: 1 },
      { username: "dan", rank: 1, position: 2 },
      { username: "Amy", rank: 3, position: 3 },
      { username: "bob", rank: 4, position: 4 },
    ]);
    for (const [i, r] of page.entries()) {
      const [{ p }] = await asUser(
        db.sql,
        w.ids.Amy,
        (tx) => tx<{ p: number }[]>`
        select public.season_leaderboard_position(${comp}, ${w.ids[r.username]}) as p`,
      );
      expect(p).toBe(r.position);
      // Every offset (inside and at the start of a block of equal rank) gives the same row as the full page.
      for (const size of [1, 2]) {
        const rows = await asUser(
          db.sql,
          w.ids.Amy,
          (tx) => tx<{ username: string; rank: number; position: number }[]>`
          select username, rank, position from public.season_leaderboard_page(${comp}, ${i}, ${size})`,
        );
        expect(rows).toEqual(page.slice(i, i + size));
      }
    }
    const empty = await w.competition(league, "season", []);
    expect(await db.sql`select * from public.season_leaderboard_page(${empty}, 0, 10)`).toEqual([]);
  });
});
