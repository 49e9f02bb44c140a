/**
 * Planning ahead (rules file "Planning ahead"; decision 028): a player picks for any coming match day that has
 * fixtures and changes it until that match day's deadline; in a knockout a team appears once in picks and plans
 * together; a plan is a pick (it counts at its deadline, stops that match day's reminders, stays hidden from others
 * until then); a plan whose match is postponed or moved is dropped with a notice and a push.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";
import { kickoff, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;
const HOUR = 3_600_000;
const NOW = new Date(kickoff(1).getTime() - 48 * HOUR); // every match day still ahead
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

const save = (name: string, comp: string, team: string, md: number | null, now = NOW) =>
  asUser(db.sql, w.ids[name], (tx) => tx<{ r: string }[]>`select public.save_team_selection(${comp}, ${team}, ${md}::int) as r`, {
    now,
  }).then(([{ r }]) => r);
const eligible = (name: string, comp: string, md: number, now = NOW) =>
  asUser(db.sql, w.ids[name], (tx) => tx<{ team: string }[]>`select team from public.get_eligible_teams(${comp}, ${w.ids[name]}, ${md})`, {
    now,
  }).then((rows) => rows.map((r) => r.team));
const picksSeenBy = (name: string, comp: string, now: Date) =>
  asUser(
    db.sql,
    w.ids[name],
    (tx) => tx<{ s: string }[]>`
      select pn.username || '@' || ts.match_day || '=' || ts.selected_team as s
        from public.team_selections ts join public.player_names pn on pn.id = ts.user_id
       where ts.competition_id = ${comp} order by 1`,
    { now },
  ).then((rows) => rows.map((r) => r.s));

describe("plans", () => {
  it("a player picks for a coming match day and changes it until its deadline; nothing else is a coming match day", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "season", ["Amy", "Bob"], { total_match_days: 4 });
    expect(await save("Amy", comp, "T3", 3)).toBe("saved");
    expect(await save("Amy", comp, "T5", 3)).toBe("saved");
    expect(await save("Amy", comp, "T1", 4)).toBe("selection_closed"); // match day 4 has no fixtures yet
    expect(await save("Amy", comp, "T1", 5)).toBe("selection_closed"); // after the last match day
    expect(await save("Amy", comp, "T7", 3, new Date(deadline(3).getTime() + 60_000))).toBe("selection_closed");
    expect(await picksSeenBy("Amy", comp, NOW)).toEqual(["Amy@3=T5"]);

    const coming = await asUser(
      db.sql,
      w.ids.Amy,
      (tx) => tx<{ match_day: number; deadline: Date; team: string | null }[]>`
        select match_day, deadline, team from public.coming_match_days(${comp})`,
      { now: NOW },
    );
    expect(coming.map((c) => [c.match_day, c.deadline.toISOString(), c.team])).toEqual([
      [1, deadline(1).toISOString(), null],
      [2, deadline(2).toISOString(), null],
      [3, deadline(3).toISOString(), "T5"],
    ]);
  });

  it("knockout: a team appears once in a player's picks and plans together", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob"]);
    expect(await save("Amy", comp, "T1", 3)).toBe("saved");
    expect(await eligible("Amy", comp, 1)).not.toContain("T1");
    expect(await eligible("Amy", comp, 2)).not.toContain("T1");
    expect(await eligible("Amy", comp, 3)).toContain("T1"); // its own match day's pick stays (to change back)
    expect(await save("Amy", comp, "T1", 1)).toBe("not_eligible");
    expect(await save("Amy", comp, "T1", null)).toBe("not_eligible");
    expect(await eligible("Bob", comp, 1)).toContain("T1");
    // Moving the plan frees the team.
    expect(await save("Amy", comp, "T2", 3)).toBe("saved");
    expect(await save("Amy", comp, "T1", null)).toBe("saved");
  });

  it("a plan is hidden from other members until its deadline, then counts as the pick of its match day", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob", "Cat"]);
    for (const [name, team] of [
      ["Amy", "T1"],
      ["Bob", "T3"],
      ["Cat", "T5"],
    ])
      expect(await save(name, comp, team, 1)).toBe("saved");
    expect(await save("Amy", comp, "T7", 2)).toBe("saved");
    expect(await save("Bob", comp, "T6", 2)).toBe("saved");
    // Before match day 2's deadline Bob sees his own and match day 1's picks (once its deadline passed), not Amy's plan.
    const between = new Date(deadline(1).getTime() + 60_000);
    expect(await picksSeenBy("Bob", comp, between)).toEqual(["Amy@1=T1", "Bob@1=T3", "Bob@2=T6", "Cat@1=T5"]);
    expect(await picksSeenBy("Bob", comp, new Date(deadline(2).getTime() + 60_000))).toContain("Amy@2=T7");
    // Match day 1: all win. Match day 2 (processed after its deadline): Amy's plan wins, Bob's loses, Cat had none.
    await w.playMatchDay(league, 1, {});
    await w.playMatchDay(league, 2, { T7: [2, 0], T5: [1, 0] });
    expect(await w.memberships(comp)).toEqual({ Amy: "completed", Bob: "eliminated@2", Cat: "eliminated@2" });
  });

  it("a plan stops its match day's reminders", async () => {
    const league = await w.league(2);
    const comp = await w.competition(league, "season", ["Amy", "Bob"]);
    for (const name of ["Amy", "Bob"]) {
      await db.sql`update public.profiles set notifications_enabled = true where id = ${w.ids[name]}`;
      await db.sql`insert into public.push_subscriptions (user_id, kind, fcm_token) values (${w.ids[name]}, 'fcm', ${`tok-${name}-${comp}`})`;
    }
    expect(await save("Amy", comp, "T1", 2)).toBe("saved"); // a plan while match day 1 is current
    expect(await save("Amy", comp, "T1", 1)).toBe("saved");
    expect(await save("Bob", comp, "T3", 1)).toBe("saved");
    const afterMd1 = new Date(kickoff(1).getTime() + 5 * HOUR);
    for (const home of ["T1", "T3", "T5", "T7"]) {
      const id = await w.fixtureId(league, 1, home);
      await w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, 1, 0)`, afterMd1);
    }
    expect((await w.competitionRow(comp)).current_match_day).toBe(2);
    const tick = new Date(deadline(2).getTime() - 2 * HOUR);
    const reminded = await db.sql.begin(async (tx) => {
      await tx`select set_config('app.now', ${tick.toISOString()}, true)`;
      await tx`select * from private.queue_reminders(${tick})`;
      return tx<{ user_id: string }[]>`select user_id from public.reminder_log where competition_id = ${comp} and match_day = 2`;
    });
    expect(reminded.map((r) => w.nameOf(r.user_id))).toEqual(["Bob"]);
  });
});

describe("dropped plans", () => {
  it("a plan whose match is postponed is dropped with a notice and a push; a current pick on a postponed match stays", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "knockout", ["Amy", "Bob"]);
    await db.sql`update public.profiles set notifications_enabled = true where id = ${w.ids.Amy}`;
    await db.sql`insert into public.push_subscriptions (user_id, kind, fcm_token) values (${w.ids.Amy}, 'fcm', ${`tok-drop-${comp}`})`;
    expect(await save("Amy", comp, "T3", 2)).toBe("saved");
    expect(await save("Bob", comp, "T1", null)).toBe("saved");
    const early = new Date(deadline(1).getTime() - 3 * HOUR);
    for (const [md, home] of [
      [2, "T3"],
      [1, "T1"],
    ] as const) {
      const id = await w.fixtureId(league, md, home);
      await w.asAdmin((tx) => tx`select public.set_fixture_postponed(${id}, true)`, early);
    }
    expect(await picksSeenBy("Boss", comp, early)).toEqual(["Bob@1=T1"]);
    const [notice] = await asUser(db.sql, w.ids.Amy, (tx) => tx`select kind, body, link from public.notices`);
    expect(notice).toEqual({
      kind: "plan_dropped",
      body: expect.stringMatching(
        /^Your pick of T3 for Match Day 2 in .+ was dropped: its match was postponed\. Pick again before the deadline\.$/,
      ),
      link: `/select-team/${comp}?md=2`,
    });
    // one push per subscription of hers (notifications on)
    const pushes = await db.sql`select kind, body from private.push_deliveries where user_id = ${w.ids.Amy}`;
    const [{ n }] = await db.sql`select count(*)::int as n from public.push_subscriptions where user_id = ${w.ids.Amy}`;
    expect(pushes).toEqual(Array(n).fill({ kind: "notice", body: notice.body }));
    expect(await asUser(db.sql, w.ids.Bob, (tx) => tx`select 1 from public.notices`)).toHaveLength(0);
  });

  it("a plan whose match moves to another match day (a CSV row) is dropped", async () => {
    const league = await w.league(3);
    const comp = await w.competition(league, "season", ["Amy"]);
    expect(await save("Amy", comp, "T5", 3)).toBe("saved");
    const id = await w.fixtureId(league, 3, "T5");
    const row = { line: 2, id: String(id), league, season: "2025/26", match_day: "4", home_team: "T5", away_team: "T6" };
    await w.asAdmin(
      (tx) => tx`select public.upsert_fixtures(${tx.json([{ ...row, kickoff_time: kickoff(3).toISOString() }] as never)})`,
      NOW,
    );
    expect(await picksSeenBy("Amy", comp, NOW)).toEqual([]);
    const [notice] = await asUser(db.sql, w.ids.Amy, (tx) => tx`select body from public.notices order by id desc limit 1`);
    expect(notice.body).toMatch(/Your pick of T5 for Match Day 3 in .+ was dropped: its match moved to another match day\./);
  });
});
