/*
 * The client's side of the live match day's sequence numbers (decision 022), apart from the socket so that the
 * workerd tests drive the real object with it (tests/workers/live.test.ts) and the hook (use-live.ts) only wires it
 * to a WebSocket. Every message of the object carries the object's sequence number:
 *   hello    on connect: the first one sets where this page stands, and carries changedAt, the object's clock at
 *            its last change: a change newer than the page's data (or within LIVE_CLOCK_MARGIN_MS of it) came
 *            between the page's load and this socket, so the page revalidates once; after a reconnect hello is
 *            ignored (the resync, sent on open, answers instead);
 *   changed  the next change: revalidate; a number further on than the next one means messages were lost (a gap):
 *            ask where the object is (resync) instead of guessing;
 *   resync   the answer to {resync: lastSeq}: where the object is, and whether it moved on meanwhile (revalidate).
 */

export type LiveServerMessage =
  | { seq: number; kind: "hello"; changedAt?: number | null }
  | { seq: number; kind: "changed" }
  | { seq: number; kind: "resync"; changed: boolean };

export interface LiveStep {
  /** What to send back (a resync request), or null. */
  reply: string | null;
  /** The page's data may be stale: revalidate its loaders. */
  revalidate: boolean;
}

export interface LiveSequence {
  /** The socket opened: on a reconnect, the resync request to send (null on the first connect). */
  opened(): string | null;
  /** A text message of the object. */
  received(data: string): LiveStep;
  /** The last sequence number this page is known to have seen (null before the first hello). */
  readonly lastSeq: number | null;
}

const NOTHING: LiveStep = { reply: null, revalidate: false };

/**
 * The page's loader takes its time (Date.now() in the Worker) before its database query; the object takes its
 * time in notify, after the writer's COMMIT. Both are Cloudflare's clock, but on two machines: a change is taken as
 * possibly missed when it is newer than the data minus this margin. Too large costs one needless revalidation of a
 * page loaded just after a change; too small could miss a change on a skewed clock. (A Worker's clock stands still
 * between I/O, so the loader's time is never later than its query: that errs on the safe side too.)
 */
export const LIVE_CLOCK_MARGIN_MS = 2_000;

/**
 * `dataReadAt`: when the page's data was read (its loader's `liveReadAt`, ms), asked at the first hello; null or
 * absent: unknown, no catch-up.
 */
export function liveSequence(dataReadAt?: () => number | null | undefined): LiveSequence {
  let lastSeq: number | null = null;
  const resync = () => JSON.stringify({ resync: lastSeq });
  return {
    get lastSeq() {
      return lastSeq;
    },
    opened: () => (lastSeq === null ? null : resync()),
    received(data) {
      let m: LiveServerMessage;
      try {
        m = JSON.parse(data) as LiveServerMessage;
      } catch {
        return NOTHING;
      }
      if (typeof m?.seq !== "number" || !Number.isInteger(m.seq)) return NOTHING;
      if (m.kind === "hello") {
        if (lastSeq !== null) return NOTHING;
        lastSeq = m.seq;
        const readAt = dataReadAt?.();
        const changedAt = m.changedAt;
        const missed = typeof readAt === "number" && typeof changedAt === "number" && changedAt > readAt - LIVE_CLOCK_MARGIN_MS;
        return missed ? { reply: null, revalidate: true } : NOTHING;
      }
      if (m.kind === "changed") {
        if (lastSeq === null || m.seq === lastSeq + 1) {
          lastSeq = m.seq;
          return { reply: null, revalidate: true };
        }
        // a gap (a message lost): ask where the object is; its answer revalidates
        if (m.seq > lastSeq + 1) return { reply: resync(), revalidate: false };
        return NOTHING; // already seen
      }
      if (m.kind === "resync") {
        lastSeq = m.seq;
        return { reply: null, revalidate: m.changed === true };
      }
      return NOTHING;
    },
  };
}
