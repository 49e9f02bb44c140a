/**
 * Integrity rules found by the attack run: a result only after kickoff (panel and CSV), processing never
 * before the deadline, team names that cannot carry a spreadsheet formula, and the 18+ rule on the player's
 * own calendar day (one home: the profiles trigger).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";
import { kickoff, SEASON, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;
const HOUR = 3_600_000;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "Bob"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

describe("results only after kickoff", () => {
  it("save_fixture_result refuses a fixture whose kickoff is in the future, and stores nothing", async () => {
    const league = await w.league(1);
    const id = await w.fixtureId(league, 1, "T1");
    const before = new Date(kickoff(1).getTime() - 60_000);
    await expect(w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, 2, 1)`, before)).rejects.toMatchObject({
      code: "P0001",
      message: "A result can be entered only after kickoff.",
    });
    const [f] = await db.sql`select status, home_score from public.fixtures where id = ${id}`;
    expect(f).toEqual({ status: "pending", home_score: null });
    const after = new Date(kickoff(1).getTime() + 60_000);
    const [{ r }] = await w.asAdmin((tx) => tx<{ r: string }[]>`select public.save_fixture_result(${id}, 2, 1) as r`, after);
    expect(r).toBe("saved");
  });

  it("a CSV row with status complete and a future kickoff is refused with its line and reason", async () => {
    const future = new Date(kickoff(1).getTime() + 2 * HOUR).toISOString();
    const rows = [
      {
        line: 2,
        league: "CSV Future",
        season: SEASON,
        match_day: "1",
        home_team: "Ayr",
        away_team: "Bury",
        kickoff_time: future,
        status: "complete",
        home_score: "1",
        away_score: "0",
      },
      {
        line: 3,
        league: "CSV Future",
        season: SEASON,
        match_day: "1",
        home_team: "Cork",
        away_team: "Derby",
        kickoff_time: future,
        status: "pending",
      },
    ];
    const now = new Date(kickoff(1).getTime() - HOUR);
    const [{ r }] = await w.asAdmin(
      (tx) => tx<{ r: { succeeded: number; failed: { line: number; reason: string }[] } }[]>`
      select public.upsert_fixtures(${tx.json(rows)}::jsonb) as r`,
      now,
    );
    expect(r.succeeded).toBe(1);
    expect(r.failed).toEqual([{ line: 2, reason: "A result can be entered only after kickoff." }]);
    const stored = await db.sql`select home_team from public.fixtures where league = 'CSV Future'`;
    expect(stored.map((s) => s.home_team)).toEqual(["Cork"]);
  });
});

describe("processing never before the deadline", () => {
  it("a match day postponed in full before its deadline eliminates nobody until the deadline has passed", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob"]);
    await w.pick(comp, "Amy", 1, "T1");
    // Bob has no pick yet and picks are still open: postponing every fixture must not knock him out.
    const early = new Date(kickoff(1).getTime() - 3 * HOUR);
    for (const home of ["T1", "T3", "T5", "T7"]) {
      const id = await w.fixtureId(league, 1, home);
      await w.asAdmin((tx) => tx`select public.set_fixture_postponed(${id}, true)`, early);
    }
    expect(await w.processed(comp)).toEqual([]);
    expect(await w.memberships(comp)).toEqual({ Amy: "active", Bob: "active" });
    expect((await w.competitionRow(comp)).current_match_day).toBe(1);

    // After the deadline the scheduler's step processes it: Bob had no pick and is out; Amy's pick was
    // postponed, so she stays in, the last player standing.
    const late = new Date(kickoff(1).getTime() - HOUR + 60_000);
    await w.asAdmin((tx) => tx`select public.process_due_matchdays()`, late);
    expect(await w.processed(comp)).toEqual([1]);
    expect(await w.memberships(comp)).toEqual({ Amy: "completed", Bob: "eliminated@1" });
    expect((await w.competitionRow(comp)).knockout_winner).toBe("Amy");
  });
});

describe("team names in a CSV upload", () => {
  it("refuses formula-like names per row and keeps ordinary names with accents, dots, apostrophes and ampersands", async () => {
    const at = new Date(kickoff(1).getTime() + 24 * HOUR).toISOString();
    const bad = ['=HYPERLINK("http://evil.example","x")', "+SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)", "\tTab", "Semi;colon"];
    const good = ["Brighton & Hove Albion", "Nott'm Forest", "Atlético Madrid", "St. Pauli", "1. FC Köln", "Bayer 04-Leverkusen"];
    const rows = [
      ...bad.map((name, i) => ({
        line: i + 2,
        league: "CSV Names",
        season: SEASON,
        match_day: "1",
        home_team: name,
        away_team: `Away ${i}`,
        kickoff_time: at,
        status: "pending",
      })),
      ...good.map((name, i) => ({
        line: i + 20,
        league: "CSV Names",
        season: SEASON,
        match_day: "2",
        home_team: name,
        away_team: `Away ${i}`,
        kickoff_time: at,
        status: "pending",
      })),
    ];
    const [{ r }] = await w.asAdmin(
      (tx) => tx<{ r: { succeeded: number; failed: { line: number; reason: string }[] } }[]>`
      select public.upsert_fixtures(${tx.json(rows)}::jsonb) as r`,
    );
    expect(r.succeeded).toBe(good.length);
    expect(r.failed.map((f) => f.line)).toEqual(bad.map((_, i) => i + 2));
    for (const f of r.failed) expect(f.reason).toMatch(/^Team names may contain only letters, digits, spaces and \. ' & -/);
    const stored = await db.sql<{ home_team: string }[]>`select home_team from public.fixtures where league = 'CSV Names' order by id`;
    expect(stored.map((s) => s.home_team)).toEqual(good);
  });
});

describe("18+ on the player's own calendar day", () => {
  // 2026-11-23T12:00Z is already 2026-11-24 in Pacific/Kiritimati (UTC+14) but still 2026-11-23 in UTC.
  const NOW = new Date("2026-11-23T12:00:00Z");
  async function saveProfile(username: string, dateOfBirth: string, timeZone: string) {
    const { id } = await createAccount(db.sql, { email: `${username}@example.test` });
    return asUser(
      db.sql,
      id,
      (tx) => tx`
      insert into public.profiles (id, username, date_of_birth, gender, time_zone)
      values (${id}, ${username}, ${dateOfBirth}, 'female', ${timeZone})`,
      { now: NOW },
    );
  }

  it("a player turning 18 today in Pacific/Kiritimati is accepted although it is still yesterday in UTC", async () => {
    await expect(saveProfile("kiri18", "2008-11-24", "Pacific/Kiritimati")).resolves.toBeDefined();
  });

  it("the same date of birth is refused in UTC, with the form's message on constraint profiles_minimum_age", async () => {
    await expect(saveProfile("utc17", "2008-11-24", "UTC")).rejects.toMatchObject({
      code: "23514",
      constraint_name: "profiles_minimum_age",
      message: "You must be at least 18 years old to join FootyCoach.",
    });
  });

  it("an unknown zone counts as UTC, and changing the zone re-checks the rule", async () => {
    await expect(saveProfile("nozone", "2008-11-24", "Mars/Olympus")).rejects.toMatchObject({ constraint_name: "profiles_minimum_age" });
    await saveProfile("mover", "2008-11-24", "Pacific/Kiritimati");
    const [{ id }] = await db.sql<{ id: string }[]>`select id from public.profiles where username = 'mover'`;
    await expect(
      asUser(db.sql, id, (tx) => tx`update public.profiles set time_zone = 'UTC' where id = ${id}`, { now: NOW }),
    ).rejects.toMatchObject({ constraint_name: "profiles_minimum_age" });
  });
});
