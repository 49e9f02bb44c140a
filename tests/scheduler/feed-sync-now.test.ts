/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * "Sync now" at once (decision 027): the scheduler Worker's FeedSync entrypoint, which the web Worker calls through
 * its FEED_SYNC service binding after committing the admin's request, in workerd on the real database against the
 * local v4 server. The league is synced at once when its budget allows (not within 50 seconds of its last request,
 * not while the plan's minute budget is spent or a 429 pauses the feed); otherwise the answer names the feed tick
 * that will, and that tick does. Times in 2036; match and team ids of their own (tags 51 to 54: feed.test.ts's stop
 * at 41).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FeedSync } from "../../workers/scheduler/index";
import type { SyncNowAnswer } from "../../workers/scheduler/feed/sync-now";
import { buildSeason } from "../../scripts/feed/v4-matches";
import type { Sql } from "../support/factories";
import { db, settle } from "./arrange";
import {
  allRequests,
  feedLeague,
  feedSettings,
  feedTick,
  fixtures,
  linkLeague,
  requestsFor,
  resetFeedServer,
  setSeason,
} from "./feed-arrange";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

let sql: Sql;
beforeAll(() => {
  sql = db();
});
beforeEach(() => resetFeedServer());
afterEach(async () => {
  await sql`update public.feed_leagues set linked = false`;
});
afterAll(settle);

/** The web Worker's call: FeedSync.syncNow through the service binding, at the admin's clock. */
async function syncNow(league: string, season: string, now: Date): Promise<SyncNowAnswer> {
  const ctx = createExecutionContext();
  const entrypoint = new FeedSync(ctx, env as never);
  const answer = await entrypoint.syncNow({ league, season, at: now.toISOString() });
  await waitOnExecutionContext(ctx);
  return answer;
}

/** Sync now's request as the admin panel saves it (private.request_feed_sync), at `now`. */
const ask = (league: string, season: string, now: Date) =>
  sql`update public.feed_leagues set sync_requested_at = ${now} where league = ${league} and season = ${season}`;

const season = (tag: number, firstKickoff: Date) =>
  buildSeason({ teams: ["Nord", "Sud", "Est", "Ouest"], firstMatchId: tag * 10_000, firstTeamId: tag * 100, firstKickoff });

describe("Sync now", () => {
  it("syncs the league at once: one request, the season written, the request done", async () => {
    const [league, s] = ["Premier League", "2036/37"];
    await setSeason("PL", 2036, season(51, new Date("2036-09-06T14:00:00Z")));
    const now = new Date("2036-09-01T10:00:20Z");
    await linkLeague(sql, league, s, now); // Link asks for a sync as Sync now does

    expect(await syncNow(league, s, now)).toEqual({ status: "synced", fixtures: 12, results: 0 });
    expect(await fixtures(sql, league, s)).toHaveLength(12);
    expect(await requestsFor("PL", 2036)).toHaveLength(1);
    const [row] = await sql`select sync_requested_at, last_attempt_at, last_synced_at from public.feed_leagues
                             where league = ${league} and season = ${s}`;
    expect(row).toEqual({ sync_requested_at: null, last_attempt_at: now, last_synced_at: now });
    // nothing asked any more: a second call does nothing
    expect(await syncNow(league, s, at(now, 5 * SECOND))).toEqual({ status: "not_requested" });
    expect(await requestsFor("PL", 2036)).toHaveLength(1);
  });

  it("within 50 seconds of the league's last request it answers when the feed tick will sync it, and that tick does", async () => {
    const [league, s] = ["La Liga", "2036/37"];
    await setSeason("PD", 2036, season(52, new Date("2036-10-04T19:00:00Z")));
    const tick = new Date("2036-10-01T08:00:00Z");
    await linkLeague(sql, league, s, tick);
    await feedTick(tick); // the tick asked the feed at 08:00:00
    const pressed = at(tick, 30 * SECOND);
    await ask(league, s, pressed);

    // free at 08:00:50, so the 08:01 tick syncs it
    expect(await syncNow(league, s, pressed)).toEqual({ status: "waiting", at: "2036-10-01T08:01:00.000Z" });
    expect(await requestsFor("PD", 2036)).toHaveLength(1);
    await feedTick(at(tick, MINUTE));
    expect(await requestsFor("PD", 2036)).toHaveLength(2);
    expect(await feedLeague(sql, league, s)).toMatchObject({ last_synced_at: at(tick, MINUTE) });
  });

  it("keeps within the plan's minute budget: spent by a tick, Sync now waits for the counter's reset instead of meeting a 429", async () => {
    const [league, s] = ["Serie A", "2036/37"];
    const other = ["Bundesliga", "2036/37"] as const;
    await setSeason("SA", 2036, season(53, new Date("2036-11-07T19:45:00Z")));
    await setSeason("BL1", 2036, season(54, new Date("2036-11-07T19:30:00Z")));
    await feedSettings({ limitPerMinute: 1 });
    const tick = new Date("2036-11-01T12:00:00Z");
    await linkLeague(sql, ...other, tick);
    await feedTick(tick); // the minute's one request: the answer says 0 left
    await linkLeague(sql, league, s, at(tick, 10 * SECOND));

    const answer = await syncNow(league, s, at(tick, 10 * SECOND));
    expect(answer.status).toBe("waiting");
    // the whole feed waits (the plan's limit is the token's) until the server's counter resets, within the minute;
    // then the tick on the minute syncs it
    const [{ paused }] = await sql<{ paused: Date }[]>`select private.feed_paused_until() as paused`;
    expect(paused.getTime()).toBeGreaterThan(tick.getTime());
    expect(paused.getTime()).toBeLessThanOrEqual(at(tick, MINUTE).getTime());
    expect(answer).toEqual({ status: "waiting", at: "2036-11-01T12:01:00.000Z" });
    expect((await allRequests()).map((r) => r.status)).toEqual([200]);
  });

  it("a league that is not linked, or not asked for, is left alone", async () => {
    expect(await syncNow("Ligue 1", "2036/37", new Date("2036-12-01T12:00:00Z"))).toEqual({ status: "not_requested" });
    expect(await allRequests()).toEqual([]);
  });
});
