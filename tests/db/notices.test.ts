/**
 * Notices (decision 020): a player reads and marks read only their own; a correction's notice becomes a push only
 * for a player with notifications on and a subscription; the scheduler takes each notice push once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, errorCode, useTestDatabase } from "../support/pg";
import { World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat"]) await w.player(name);
});
afterAll(async () => {
  await db?.close();
});

/** A knockout where Amy and bob picked opposite sides of T1-T2 (2-0), then corrected to 0-2: both are told. */
async function correction() {
  const league = await w.league(1);
  const competition = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
  await w.pick(competition, "Amy", 1, "T1");
  await w.pick(competition, "bob", 1, "T2");
  await w.pick(competition, "Cat", 1, "T3");
  await w.playMatchDay(league, 1, { T1: [2, 0] });
  await w.score(league, 1, "T1", 0, 2, "Scores were swapped");
  return { league, competition };
}

describe("notices", () => {
  it("a player sees only their own, and may mark only their own read", async () => {
    await db.sql`update public.profiles set notifications_enabled = true where id = ${w.ids.Amy}`;
    await db.sql`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
                 values (${w.ids.Amy}, 'webpush', 'https://fcm.googleapis.com/fcm/send/notice-test', 'BKey', 'auth')`;
    await correction();
    const seen = (name: string) =>
      asUser(db.sql, w.ids[name], (tx) => tx<{ user_id: string; read_at: Date | null }[]>`select user_id, read_at from public.notices`);
    expect((await seen("Amy")).map((n) => n.user_id)).toEqual([w.ids.Amy]);
    expect((await seen("bob")).map((n) => n.user_id)).toEqual([w.ids.bob]);
    expect(await seen("Cat")).toEqual([]);

    // bob's "mark all read" touches only his own; a crafted update of another column is refused
    const marked = await asUser(db.sql, w.ids.bob, (tx) => tx`update public.notices set read_at = now() where read_at is null`);
    expect(marked.count).toBe(1);
    expect((await seen("Amy"))[0].read_at).toBeNull();
    expect(await errorCode(asUser(db.sql, w.ids.bob, (tx) => tx`update public.notices set body = 'x'`))).toBe("42501");
    expect(
      await errorCode(
        asUser(
          db.sql,
          w.ids.bob,
          (tx) => tx`insert into public.notices (user_id, kind, body) values (${w.ids.bob}, 'result_correction', 'x')`,
        ),
      ),
    ).toBe("42501");

    // Amy has notifications on and a subscription: her notice is a push (to /notices); bob's is not
    const pushes = await db.sql<{ user_id: string; kind: string; link: string; body: string }[]>`
      select user_id, kind, link, body from private.push_deliveries where kind = 'notice'`;
    const [amyNotice] = await db.sql<{ body: string }[]>`select body from public.notices where user_id = ${w.ids.Amy}`;
    expect(pushes).toEqual([{ user_id: w.ids.Amy, kind: "notice", link: "/notices", body: amyNotice.body }]);

    // the scheduler takes each notice push once, however many ticks ask
    const take = () => db.sql<{ delivery_id: string }[]>`select delivery_id from private.take_unqueued_notice_deliveries(now())`;
    const [first, second] = [await take(), await take()];
    expect(first).toHaveLength(1);
    expect(second).toEqual([]);
  });

  it("a correction that changes nobody's outcome tells nobody", async () => {
    const league = await w.league(1);
    const competition = await w.competition(league, "knockout", ["Amy", "bob"]);
    await w.pick(competition, "Amy", 1, "T3");
    await w.pick(competition, "bob", 1, "T5");
    await w.playMatchDay(league, 1, { T1: [2, 0] });
    const id = await w.fixtureId(league, 1, "T1");
    await w.score(league, 1, "T1", 3, 0, "Late goal missed");
    const [{ n }] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from public.notices where (params ->> 'fixture_id')::bigint = ${id}`;
    expect(n).toBe(0);
    const [change] =
      await db.sql`select is_correction, notices from public.fixture_result_changes where fixture_id = ${id} order by id desc limit 1`;
    expect(change).toEqual({ is_correction: true, notices: 0 });
  });
});
