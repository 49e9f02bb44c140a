/**
 * The data feed's SQL seen from the admin panel and the rules (decision 020): team names compared after
 * normalising, linking only what the feed has, the admin-only functions and tables, and the feed's cadence.
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
  await w.player("Amy");
});
afterAll(async () => {
  await db?.close();
});

describe("team names", () => {
  it("are equal after normalising when only club words, case, accents or & differ", async () => {
    const pairs = [
      ["Arsenal FC", "Arsenal"],
      ["Brighton & Hove Albion FC", "Brighton & Hove Albion"],
      ["Brighton and Hove Albion", "Brighton & Hove Albion"],
      ["AFC Bournemouth", "Bournemouth"],
      ["Borussia Mönchengladbach", "Borussia Monchengladbach"],
      ["Club Atlético de Madrid", "club atletico de madrid"],
    ];
    for (const [a, b] of pairs) {
      const [row] = await db.sql<{ same: boolean }[]>`select private.normalise_team_name(${a}) = private.normalise_team_name(${b}) as same`;
      expect(row.same, `${a} = ${b}`).toBe(true);
    }
    const [diff] = await db.sql<
      { same: boolean }[]
    >`select private.normalise_team_name('Manchester City') = private.normalise_team_name('Manchester United') as same`;
    expect(diff.same).toBe(false);
  });

  it("a team new to the app gets the feed's name without FC, within the allowed characters", async () => {
    const rows = await db.sql<{ name: string | null }[]>`
      select private.feed_team_display_name(n, s) as name
        from (values ('Arsenal FC', 'Arsenal'), ('FC Barcelona', 'Barça'), ('Paris Saint-Germain FC', 'PSG'), ('@@@', '***')) v (n, s)`;
    expect(rows.map((r) => r.name)).toEqual(["Arsenal", "FC Barcelona", "Paris Saint-Germain", null]);
  });
});

describe("the admin panel's functions", () => {
  it("are refused to players, with the spec's message", async () => {
    const league = await w.league(1);
    const id = await w.fixtureId(league, 1, "T1");
    const calls = [
      () => asUser(db.sql, w.ids.Amy, (tx) => tx`select public.link_feed_league('Premier League', '2025/26')`),
      () => asUser(db.sql, w.ids.Amy, (tx) => tx`select public.unlink_feed_league('Premier League', '2025/26')`),
      () => asUser(db.sql, w.ids.Amy, (tx) => tx`select public.request_feed_sync('Premier League', '2025/26')`),
      () => asUser(db.sql, w.ids.Amy, (tx) => tx`select public.accept_feed_result(${id})`),
      () => asUser(db.sql, w.ids.Amy, (tx) => tx`select public.keep_manual_result(${id})`),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: "42501", message: "Access denied. Admins only." });
    }
  });

  it("link a league the feed has, for a season of the app, and ask for a sync", async () => {
    const [{ r }] = await w.asAdmin((tx) => tx<{ r: string }[]>`select public.link_feed_league('La Liga', '2024/25') as r`);
    expect(r).toBe("linked");
    const [row] =
      await db.sql`select code, season_year, linked, linked_by, sync_requested_at is not null as requested from public.feed_leagues
                                where league = 'La Liga' and season = '2024/25'`;
    expect(row).toEqual({ code: "PD", season_year: 2024, linked: true, linked_by: w.admin, requested: true });
    await expect(w.asAdmin((tx) => tx`select public.link_feed_league('MLS', '2025')`)).rejects.toMatchObject({
      message: "This league has no data feed.",
    });
    await expect(w.asAdmin((tx) => tx`select public.link_feed_league('La Liga', '1999')`)).rejects.toMatchObject({
      message: "Choose a season.",
    });
    expect((await w.asAdmin((tx) => tx<{ r: string }[]>`select public.unlink_feed_league('La Liga', '2024/25') as r`))[0].r).toBe(
      "unlinked",
    );
    expect((await w.asAdmin((tx) => tx<{ r: string }[]>`select public.request_feed_sync('La Liga', '2024/25') as r`))[0].r).toBe(
      "not_linked",
    );
  });

  it("lets admins, not players, read the feed's state and team map", async () => {
    const count = (id: string) => asUser(db.sql, id, (tx) => tx<{ n: number }[]>`select count(*)::int as n from public.feed_leagues`);
    expect((await count(w.ids.Amy))[0].n).toBe(0);
    expect((await count(w.admin))[0].n).toBeGreaterThan(0);
    expect(await errorCode(asUser(db.sql, w.admin, (tx) => tx`update public.feed_leagues set linked = true`))).toBe("42501");
  });
});

describe("the feed's cadence (claim_due_feed_league)", () => {
  const claim = (at: Date) => db.sql<{ league: string }[]>`select league from private.claim_due_feed_league(${at})`;

  it("asks a linked league when asked to, then every 15 minutes, once per minute at most, backing off after failures", async () => {
    await db.sql`update public.feed_leagues set linked = false`;
    const t0 = new Date("2034-01-01T12:00:00Z");
    await db.sql`insert into public.feed_leagues (league, season, code, season_year, sync_requested_at)
                 values ('Serie A', '2025/26', 'SA', 2025, ${t0})`;
    expect(await claim(t0)).toEqual([{ league: "Serie A" }]);
    expect(await claim(t0)).toEqual([]); // claimed: a concurrent tick takes nothing
    await db.sql`select private.sync_feed_league('Serie A', '2025/26', '[]'::jsonb, ${t0})`;
    expect(await claim(new Date(t0.getTime() + 5 * 60_000))).toEqual([]);
    expect(await claim(new Date(t0.getTime() + 15 * 60_000))).toEqual([{ league: "Serie A" }]);

    const t1 = new Date(t0.getTime() + 15 * 60_000);
    const [{ next }] = await db.sql<{ next: Date }[]>`
      select private.record_feed_failure('Serie A', '2025/26', ${t1}, 'The feed is unavailable (HTTP 503).', null, false, 1) as next`;
    expect(next).toEqual(new Date(t1.getTime() + 60_000));
    await db.sql`select private.record_feed_failure('Serie A', '2025/26', ${t1}, 'The feed is unavailable (HTTP 503).', null, false, 1)`;
    const [row] = await db.sql`select failures, next_attempt_at, last_error from public.feed_leagues where league = 'Serie A'`;
    expect(row).toEqual({
      failures: 2,
      next_attempt_at: new Date(t1.getTime() + 2 * 60_000),
      last_error: "The feed is unavailable (HTTP 503).",
    });
    expect(await claim(new Date(t1.getTime() + 90_000))).toEqual([]);
    expect(await claim(new Date(t1.getTime() + 2 * 60_000))).toEqual([{ league: "Serie A" }]);
  });
});
