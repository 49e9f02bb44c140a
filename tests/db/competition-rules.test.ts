/**
 * Creating and changing the organiser's rules (rules file "The organiser's rules"; decision 028): every player
 * chooses type, league, season and rules; a value outside the form's choices is refused with its message and creates
 * nothing (the same message from SQL and from the form's zod schema); the creator changes them until the start match
 * day's deadline, then "The rules are fixed once the competition has started."; the create forms offer each league
 * with a coming match day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES, RULE_MESSAGES, rulesFromForm, rulesLines } from "~/lib/competition-rules";
import { createFixtures, createPlayer } from "../support/factories";
import { asUser, errorCode, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const ids: Record<string, string> = {};
const HOUR = 3_600_000;
const K = new Date("2027-03-06T15:00:00Z"); // first kickoff of match day 4 (the start match day below)
const NOW = new Date(K.getTime() - 48 * HOUR);
const LATE = new Date(K.getTime() - HOUR + 60_000);

const RULE_COLUMNS = "lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker";

beforeAll(async () => {
  db = await useTestDatabase();
  for (const [name, role] of [
    ["Ann", "player"],
    ["Ben", "player"],
    ["Root", "admin"],
  ] as const) {
    ids[name] = (await createPlayer(db.sql, { username: name, role })).id;
  }
  await createFixtures(db.sql, "La Liga", "2024/25", [
    { matchDay: 3, kickoff: new Date(NOW.getTime() - 24 * HOUR), home: "Alpha", away: "Beta" },
    { matchDay: 4, kickoff: K, home: "Alpha", away: "Gamma" },
    { matchDay: 5, kickoff: new Date(K.getTime() + 7 * 24 * HOUR), home: "Beta", away: "Gamma" },
  ]);
});

afterAll(async () => {
  await db?.close();
});

const create = (caller: string, name: string, type: string, rules: Record<string, unknown> | null, now = NOW) =>
  asUser(
    db.sql,
    caller,
    (tx) => tx<{ id: string }[]>`
      select id from public.create_private_competition(${name}, ${type}, 'La Liga', '2024/25', '2027-03-04', 4,
                                                       ${rules === null ? null : tx.json(rules as never)})`,
    { now },
  );

async function stored(id: string) {
  const [row] = await db.sql.unsafe(`select type, league, season, ${RULE_COLUMNS} from public.competitions where id = $1`, [id]);
  return row;
}

describe("creating with rules", () => {
  it("stores the rules a player chose with type, league and season; the other type's fields stay at their defaults", async () => {
    const rules = { lives: "2", draws: "through", missedPick: "auto", everyoneOut: "joint", winPoints: "5", joker: "on" };
    const [k] = await create(ids.Ann, "Ann's Knockout", "knockout", rules);
    expect(await stored(k.id)).toEqual({
      type: "knockout",
      league: "La Liga",
      season: "2024/25",
      lives: 2,
      draw_rule: "through",
      missed_pick_rule: "auto",
      everyone_out_rule: "joint",
      win_points: 3,
      draw_points: 1,
      loss_points: 0,
      joker: false,
    });
    const [s] = await create(ids.Ann, "Ann's Season", "season", { ...rules, drawPoints: 2, lossPoints: 1 });
    expect(await stored(s.id)).toMatchObject({
      type: "season",
      lives: 1,
      draw_rule: "costs-life",
      win_points: 5,
      draw_points: 2,
      loss_points: 1,
      joker: true,
    });
  });

  it("no rules at all: the defaults, which are the old rules", async () => {
    const [row] = await create(ids.Ann, "Ann's Plain", "knockout", null);
    expect(await stored(row.id)).toMatchObject({
      lives: 1,
      draw_rule: "costs-life",
      missed_pick_rule: "costs-life",
      everyone_out_rule: "rollover",
    });
    expect(rulesLines("knockout", DEFAULT_RULES)).toEqual([
      "Lives: 1",
      "A draw costs a life",
      "Missed pick: costs a life",
      "If everyone is out: roll-over",
    ]);
    expect(rulesLines("season", { ...DEFAULT_RULES, winPoints: 3, joker: true })).toEqual(["Points: win 3, draw 1, loss 0", "Joker: on"]);
  });

  it.each<[string, Record<string, string>, string]>([
    ["lives 4", { lives: "4" }, RULE_MESSAGES.lives],
    ["lives 0", { lives: "0" }, RULE_MESSAGES.lives],
    ["an unknown draw rule", { draws: "maybe" }, RULE_MESSAGES.draws],
    ["an unknown missed-pick rule", { missedPick: "random" }, RULE_MESSAGES.missedPick],
    ["an unknown everyone-out rule", { everyoneOut: "coin" }, RULE_MESSAGES.everyoneOut],
    ["11 points", { winPoints: "11" }, RULE_MESSAGES.points],
    ["negative points", { lossPoints: "-1" }, RULE_MESSAGES.points],
    ["points that are not whole", { drawPoints: "1.5" }, RULE_MESSAGES.points],
    ["a draw worth a win", { winPoints: "2", drawPoints: "2" }, RULE_MESSAGES.pointsOrder],
    ["a loss worth more than a draw", { drawPoints: "0", lossPoints: "1" }, RULE_MESSAGES.pointsOrder],
    ["a joker that is neither on nor off", { joker: "yes" }, RULE_MESSAGES.joker],
  ])("refuses %s with the form's message and creates nothing", async (label, rules, message) => {
    const name = `Refused ${label}`;
    const failure = create(ids.Ben, name, "season", rules);
    await expect(failure).rejects.toMatchObject({ code: "P0001", message });
    expect(await db.sql`select 1 from public.competitions where name = ${name}`).toHaveLength(0);
    // The form's own check says the same words.
    const form = new FormData();
    for (const [k, v] of Object.entries(rules)) form.set(k, v);
    expect(rulesFromForm(form)).toEqual({ ok: false, message });
  });

  it("the admin's public competition takes the rules too", async () => {
    const [{ id }] = await asUser(
      db.sql,
      ids.Root,
      (tx) => tx<{ id: string }[]>`
        select public.admin_create_competition('Public Lives', 'knockout', 'La Liga', '2024/25', '2027-03-04', 4,
                                               null, null, null, null, null, '{"lives": 3, "missedPick": "auto"}'::jsonb) as id`,
      { now: NOW },
    );
    expect(await stored(id)).toMatchObject({ lives: 3, missed_pick_rule: "auto" });
  });

  it("offers each league with a coming match day, and only those match days", async () => {
    const rows = await asUser(db.sql, ids.Ben, (tx) => tx`select league, season, match_day from public.creation_match_days()`, {
      now: NOW,
    });
    expect(rows.filter((r) => r.league === "La Liga")).toEqual([
      { league: "La Liga", season: "2024/25", match_day: 4 },
      { league: "La Liga", season: "2024/25", match_day: 5 },
    ]);
  });
});

describe("changing the rules", () => {
  const update = (caller: string, id: string, rules: Record<string, unknown>, now = NOW) =>
    asUser(db.sql, caller, (tx) => tx<{ r: string }[]>`select public.update_competition_rules(${id}, ${tx.json(rules as never)}) as r`, {
      now,
    });

  it("the creator changes them until the start match day's deadline; then they are fixed", async () => {
    const [{ id }] = await create(ids.Ann, "Ann's Changing", "knockout", { lives: "2" });
    expect(await update(ids.Ann, id, { lives: 3, draws: "through" })).toEqual([{ r: "saved" }]);
    expect(await stored(id)).toMatchObject({ lives: 3, draw_rule: "through", missed_pick_rule: "costs-life" });
    await expect(update(ids.Ann, id, { lives: 9 })).rejects.toMatchObject({ code: "P0001", message: RULE_MESSAGES.lives });
    await expect(update(ids.Ann, id, { lives: 1 }, LATE)).rejects.toMatchObject({
      code: "P0001",
      message: "The rules are fixed once the competition has started.",
    });
    expect(await stored(id)).toMatchObject({ lives: 3, draw_rule: "through" });
  });

  it("nobody else may change them (an admin may act for the creator)", async () => {
    const [{ id }] = await create(ids.Ann, "Ann's Guarded", "season", null);
    expect(await errorCode(update(ids.Ben, id, { joker: "on" }))).toBe("42501");
    expect(await stored(id)).toMatchObject({ joker: false });
    expect(await update(ids.Root, id, { joker: "on" })).toEqual([{ r: "saved" }]);
    expect(await stored(id)).toMatchObject({ joker: true });
    expect(await update(ids.Ann, "00000000-0000-0000-0000-000000000000", {})).toEqual([{ r: "not_found" }]);
  });
});
