import type { SyncNowAnswer, SyncNowRequest } from "../scheduler/feed/sync-now";

/**
 * The web Worker's side of "Sync now" (decision 027): after the admin's request is committed, ask the scheduler
 * Worker (the only writer of feed data) to sync that league at once, through the FEED_SYNC service binding
 * (wrangler.toml: service footycoach-scheduler, entrypoint FeedSync). It never throws: without the binding, when
 * the scheduler cannot be reached (locally: not running), or when it has not answered in FEED_SYNC_TIMEOUT_MS, the
 * answer is null and the request, already saved, waits for the next feed tick as before.
 */

export type { SyncNowAnswer };

/** What the binding offers (the RPC stub of workers/scheduler/feed/sync-now.ts's FeedSync). */
export interface FeedSyncBinding {
  syncNow(request: SyncNowRequest): Promise<SyncNowAnswer>;
}

/** A season's request and its reading take seconds at most; the feed's own request gives up after 20. */
export const FEED_SYNC_TIMEOUT_MS = 25_000;

export type FeedSyncer = (league: string, season: string, now: Date) => Promise<SyncNowAnswer | null>;

export function feedSyncer(
  binding: FeedSyncBinding | undefined,
  log: (message: string) => void = (m) => console.error(m),
  timeoutMs = FEED_SYNC_TIMEOUT_MS,
): FeedSyncer {
  return async (league, season, now) => {
    if (!binding) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        log(`sync now ${league} ${season}: no answer from the scheduler within ${timeoutMs} ms`);
        resolve(null);
      }, timeoutMs);
    });
    try {
      const asked = Promise.resolve(binding.syncNow({ league, season, at: now.toISOString() })).catch((error: unknown) => {
        log(`sync now ${league} ${season}: ${String((error as Error)?.message ?? error).slice(0, 300)}`);
        return null;
      });
      return await Promise.race([asked, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
