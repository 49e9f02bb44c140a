/**
 * The web Worker's side of "Sync now" (decision 027): asking the scheduler through the FEED_SYNC binding never
 * fails the admin's action (no binding, a refused call, no answer in time: null, and the next feed tick syncs), and
 * what the admin panel then says.
 */
import { describe, expect, it } from "vitest";
import { feedSyncer, type FeedSyncBinding } from "../../workers/web/feed-sync";
import { syncMessage, syncTimeText } from "~/models/feed-sync.server";

const NOW = new Date("2026-11-28T14:31:20Z");
const binding = (syncNow: FeedSyncBinding["syncNow"]): FeedSyncBinding => ({ syncNow });

describe("feedSyncer", () => {
  it("hands the scheduler's answer back, with the league, the season and the request's clock", async () => {
    const asked: unknown[] = [];
    const sync = feedSyncer(
      binding((request) => {
        asked.push(request);
        return Promise.resolve({ status: "synced", fixtures: 3, results: 1 });
      }),
    );
    expect(await sync("Ligue 1", "2025/26", NOW)).toEqual({ status: "synced", fixtures: 3, results: 1 });
    expect(asked).toEqual([{ league: "Ligue 1", season: "2025/26", at: NOW.toISOString() }]);
  });

  it("answers null without the binding, when the call fails, and when no answer comes in time", async () => {
    const logged: string[] = [];
    const log = (m: string) => logged.push(m);
    expect(await feedSyncer(undefined, log)("Ligue 1", "2025/26", NOW)).toBeNull();
    const refused = binding(() => Promise.reject(new Error('Worker "footycoach-scheduler" not found.')));
    expect(await feedSyncer(refused, log)("Ligue 1", "2025/26", NOW)).toBeNull();
    const silent = binding(() => new Promise(() => {}));
    expect(await feedSyncer(silent, log, 20)("Ligue 1", "2025/26", NOW)).toBeNull();
    expect(logged).toEqual([
      'sync now Ligue 1 2025/26: Worker "footycoach-scheduler" not found.',
      "sync now Ligue 1 2025/26: no answer from the scheduler within 20 ms",
    ]);
  });
});

describe("what the admin panel says", () => {
  it("names the feed tick's time in the admin's zone, with the date when it is not today there", () => {
    expect(syncTimeText("2026-11-28T14:32:00Z", "Europe/London", NOW)).toBe("14:32 GMT");
    expect(syncTimeText("2026-11-28T14:32:00Z", "Asia/Tokyo", NOW)).toBe("23:32 GMT+9");
    expect(syncTimeText("2026-11-29T09:00:00Z", "Europe/London", NOW)).toBe("Sun, 29 Nov 2026, 09:00 GMT");
  });

  it("says what came of Sync now and of Link", () => {
    const label = "Ligue 1 2025/26";
    const say = (call: "link" | "sync", answer: Parameters<typeof syncMessage>[2]) =>
      syncMessage(call, label, answer, "Europe/London", NOW);
    expect(say("sync", { status: "synced", fixtures: 1, results: 0 })).toEqual({
      type: "success",
      message: "Ligue 1 2025/26 synced: 1 fixture and 0 results changed.",
    });
    expect(say("sync", { status: "waiting", at: "2026-11-28T14:32:00.000Z" }).message).toBe(
      "Sync requested: Ligue 1 2025/26 will sync at 14:32 GMT.",
    );
    expect(say("sync", { status: "failed", message: "The feed is unavailable (HTTP 503)." })).toEqual({
      type: "error",
      message: "Ligue 1 2025/26 could not be synced: The feed is unavailable (HTTP 503).",
    });
    expect(
      say("sync", {
        status: "unavailable",
        message: "feed not configured: FOOTBALL_DATA_URL: production needs an https FOOTBALL_DATA_URL",
      }),
    ).toEqual({
      type: "error",
      message: "Ligue 1 2025/26 could not be synced: feed not configured: FOOTBALL_DATA_URL: production needs an https FOOTBALL_DATA_URL",
    });
    expect(say("sync", null).message).toBe("Sync requested: Ligue 1 2025/26 syncs within a minute.");
    expect(say("link", { status: "synced", fixtures: 306, results: 0 }).message).toBe(
      "Ligue 1 2025/26 is linked to the data feed and synced: 306 fixtures and 0 results changed.",
    );
    expect(say("link", { status: "waiting", at: "2026-11-28T14:32:00.000Z" }).message).toBe(
      "Ligue 1 2025/26 is linked to the data feed: it will sync at 14:32 GMT.",
    );
    expect(say("link", { status: "not_requested" }).message).toBe("Ligue 1 2025/26 is linked to the data feed: it syncs within a minute.");
  });
});
