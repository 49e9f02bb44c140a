import type { LiveMatchDay } from "./live";
import { liveObjectName, type LiveKey } from "./live-key";

/**
 * Tells the web Worker's live match-day objects (decision 022) that a committed write changed their
 * match day: one `notify()` per distinct match day, in parallel, each given at most NOTIFY_TIMEOUT_MS. It never
 * throws: a failed or slow notify is logged and counted, and the pages catch up on their next change or reload
 * (the data is committed already; the object only says "something changed").
 */

export const NOTIFY_TIMEOUT_MS = 5_000;

export interface NotifyOutcome {
  notified: number;
  failed: number;
}

export type LiveNotifier = (keys: LiveKey[]) => Promise<NotifyOutcome>;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function liveNotifier(
  live: DurableObjectNamespace<LiveMatchDay> | null,
  log: (message: string) => void = (m) => console.error(m),
): LiveNotifier {
  return async (keys) => {
    if (!live || keys.length === 0) return { notified: 0, failed: 0 };
    const names = [...new Set(keys.map((k) => liveObjectName(k.league, k.season, k.matchDay)))];
    const results = await Promise.allSettled(
      names.map(async (name) => withTimeout(Promise.resolve(live.get(live.idFromName(name)).notify()), NOTIFY_TIMEOUT_MS)),
    );
    let failed = 0;
    results.forEach((r, i) => {
      if (r.status === "fulfilled") return;
      failed++;
      log(`live notify ${names[i]} failed: ${String((r.reason as Error)?.message ?? r.reason).slice(0, 300)}`);
    });
    return { notified: names.length - failed, failed };
  };
}
