/**
 * The client's sequence logic of the live match day (app/lib/live-sequence.ts, decision 022): when a page
 * revalidates and when it asks the object where it is. The same logic against the real object in workerd:
 * tests/workers/live.test.ts.
 */
import { describe, expect, it } from "vitest";
import { LIVE_CLOCK_MARGIN_MS, liveSequence } from "../../app/lib/live-sequence";

const msg = (m: object) => JSON.stringify(m);
const none = { reply: null, revalidate: false };
const revalidate = { reply: null, revalidate: true };

describe("liveSequence", () => {
  it("takes the first hello as where the page stands, then revalidates on each next change", () => {
    const s = liveSequence();
    expect(s.opened()).toBeNull();
    expect(s.received(msg({ seq: 4, kind: "hello" }))).toEqual(none);
    expect(s.received(msg({ seq: 5, kind: "changed" }))).toEqual(revalidate);
    expect(s.received(msg({ seq: 6, kind: "changed" }))).toEqual(revalidate);
    expect(s.lastSeq).toBe(6);
  });

  it("asks where the object is on a gap, and revalidates on the answer when it moved on", () => {
    const s = liveSequence();
    s.received(msg({ seq: 1, kind: "hello" }));
    expect(s.received(msg({ seq: 3, kind: "changed" }))).toEqual({ reply: msg({ resync: 1 }), revalidate: false });
    expect(s.received(msg({ seq: 3, kind: "resync", changed: true }))).toEqual(revalidate);
    expect(s.lastSeq).toBe(3);
  });

  it("on a reconnect: resync from the last number seen; the new hello does not move it; no change, no revalidation", () => {
    const s = liveSequence();
    s.received(msg({ seq: 2, kind: "hello" }));
    expect(s.opened()).toBe(msg({ resync: 2 }));
    expect(s.received(msg({ seq: 9, kind: "hello" }))).toEqual(none);
    expect(s.lastSeq).toBe(2);
    expect(s.received(msg({ seq: 2, kind: "resync", changed: false }))).toEqual(none);
  });

  it("ignores repeats, an object that restarted its count is followed by its resync, and nonsense is ignored", () => {
    const s = liveSequence();
    s.received(msg({ seq: 5, kind: "hello" }));
    expect(s.received(msg({ seq: 5, kind: "changed" }))).toEqual(none);
    expect(s.received(msg({ seq: 0, kind: "resync", changed: true }))).toEqual(revalidate);
    expect(s.lastSeq).toBe(0);
    for (const bad of ["pong", "{", msg({ kind: "changed" }), msg({ seq: 1.5, kind: "changed" }), "null"]) {
      expect(s.received(bad)).toEqual(none);
    }
  });

  it("catches up once on a change between the page's load and the first hello (changedAt against the data's time)", () => {
    const readAt = 1_000_000;
    // changed after the read: revalidate
    expect(liveSequence(() => readAt).received(msg({ seq: 3, kind: "hello", changedAt: readAt + 1 }))).toEqual(revalidate);
    // within the clock margin before the read (the two clocks may differ a little): revalidate too
    expect(liveSequence(() => readAt).received(msg({ seq: 3, kind: "hello", changedAt: readAt - LIVE_CLOCK_MARGIN_MS + 1 }))).toEqual(
      revalidate,
    );
    // well before the read, never changed, or the page's time unknown: nothing
    expect(liveSequence(() => readAt).received(msg({ seq: 3, kind: "hello", changedAt: readAt - LIVE_CLOCK_MARGIN_MS }))).toEqual(none);
    expect(liveSequence(() => readAt).received(msg({ seq: 0, kind: "hello", changedAt: null }))).toEqual(none);
    expect(liveSequence(() => null).received(msg({ seq: 3, kind: "hello", changedAt: readAt + 1 }))).toEqual(none);
    expect(liveSequence().received(msg({ seq: 3, kind: "hello", changedAt: readAt + 1 }))).toEqual(none);
    // only the first hello counts: after a reconnect the resync answers
    const s = liveSequence(() => readAt);
    expect(s.received(msg({ seq: 3, kind: "hello", changedAt: readAt + 1 }))).toEqual(revalidate);
    expect(s.opened()).toBe(msg({ resync: 3 }));
    expect(s.received(msg({ seq: 3, kind: "hello", changedAt: readAt + 1 }))).toEqual(none);
  });
});
