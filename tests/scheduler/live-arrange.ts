/**
 * Sockets to the live match-day objects (decision 022) as the scheduler tests see them: through the scheduler's own
 * LIVE binding (script_name footycoach-web, an auxiliary Worker in vitest.scheduler.config.ts), upgraded the way the
 * web Worker's GET /live forwards a signed-in player's socket.
 */
import { env } from "cloudflare:test";
import type { LiveMatchDay, LiveMessage } from "../../workers/web/live";
import { LIVE_USER_HEADER } from "../../workers/web/live";
import { liveObjectName } from "../../workers/web/live-key";

export const LIVE = (env as unknown as { LIVE: DurableObjectNamespace<LiveMatchDay> }).LIVE;

export interface LiveClient {
  ws: WebSocket;
  /** The next message, or null when none came within `ms`. */
  next(ms?: number): Promise<LiveMessage | null>;
}

export async function liveSocket(league: string, season: string, matchDay: number, userId = "scheduler-test"): Promise<LiveClient> {
  const stub = LIVE.get(LIVE.idFromName(liveObjectName(league, season, matchDay)));
  const res = await stub.fetch("http://live/", { headers: { Upgrade: "websocket", [LIVE_USER_HEADER]: userId } });
  const ws = res.webSocket;
  if (res.status !== 101 || !ws) throw new Error(`no socket: ${res.status}`);
  const queue: LiveMessage[] = [];
  const waiting: ((m: LiveMessage) => void)[] = [];
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(e.data as string) as LiveMessage;
    const waiter = waiting.shift();
    if (waiter) waiter(m);
    else queue.push(m);
  });
  ws.accept();
  return {
    ws,
    next: (ms = 5_000) =>
      queue.length
        ? Promise.resolve(queue.shift()!)
        : new Promise((resolve) => {
            const waiter = (m: LiveMessage) => {
              clearTimeout(timer);
              resolve(m);
            };
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(waiter), 1);
              resolve(null);
            }, ms);
            waiting.push(waiter);
          }),
  };
}
