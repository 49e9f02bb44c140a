/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { createCookie } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { LIVE_USER_HEADER, liveObjectName, type LiveMatchDay, type LiveMessage } from "../../workers/web/live";
import { liveSequence } from "../../app/lib/live-sequence";

/*
 * The live match day's Durable Object inside workerd (decision 022): fan-out to several sockets, sequence numbers
 * and resync, what survives hibernation (attachments, the sequence in storage), and the Worker's /live route that
 * refuses a socket without a session.
 */

const BASE = "http://footycoach.test";
const LIVE = (env as unknown as { LIVE: DurableObjectNamespace<LiveMatchDay> }).LIVE;

function stubFor(name: string) {
  return LIVE.get(LIVE.idFromName(name));
}

interface Client {
  ws: WebSocket;
  messages: LiveMessage[];
  next(): Promise<LiveMessage>;
}

/** A socket to the object as the web Worker forwards it (the user id already checked). */
async function connect(stub: DurableObjectStub<LiveMatchDay>, userId: string): Promise<Client> {
  const res = await stub.fetch("http://live/", { headers: { Upgrade: "websocket", [LIVE_USER_HEADER]: userId } });
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no WebSocket in the answer");
  const messages: LiveMessage[] = [];
  const waiting: ((m: LiveMessage) => void)[] = [];
  let read = 0;
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(e.data as string) as LiveMessage;
    messages.push(m);
    waiting.shift()?.(m);
  });
  ws.accept();
  return {
    ws,
    messages,
    next: () =>
      read < messages.length
        ? Promise.resolve(messages[read++])
        : new Promise((resolve) => {
            waiting.push((m) => {
              read++;
              resolve(m);
            });
          }),
  };
}

describe("LiveMatchDay (Durable Object, hibernation API)", () => {
  it("greets with the current sequence and fans a change out to every socket, in order", async () => {
    const stub = stubFor(liveObjectName("Premier League", "2025/26", 7));
    const clients = await Promise.all(["u1", "u2", "u3"].map((u) => connect(stub, u)));
    for (const c of clients) expect(await c.next()).toEqual({ seq: 0, kind: "hello", changedAt: null });

    expect(await stub.notify()).toBe(1);
    expect(await stub.notify()).toBe(2);
    for (const c of clients) {
      expect(await c.next()).toEqual({ seq: 1, kind: "changed" });
      expect(await c.next()).toEqual({ seq: 2, kind: "changed" });
    }
    for (const c of clients) c.ws.close(1000, "done");
  });

  it("answers a resync with the current sequence and whether the client missed something", async () => {
    const stub = stubFor(liveObjectName("Premier League", "2025/26", 8));
    await stub.notify();
    await stub.notify();
    await stub.notify();
    const c = await connect(stub, "u1");
    expect(await c.next()).toMatchObject({ seq: 3, kind: "hello" });
    c.ws.send(JSON.stringify({ resync: 1 }));
    expect(await c.next()).toEqual({ seq: 3, kind: "resync", changed: true });
    c.ws.send(JSON.stringify({ resync: 3 }));
    expect(await c.next()).toEqual({ seq: 3, kind: "resync", changed: false });
    // nonsense is ignored (no answer): the next message is the next change
    c.ws.send("not json");
    c.ws.send(JSON.stringify({ resync: "x" }));
    await stub.notify();
    expect(await c.next()).toEqual({ seq: 4, kind: "changed" });
    c.ws.close(1000, "done");
  });

  it("keeps what hibernation must keep: each socket's user as its attachment, the sequence in storage", async () => {
    const stub = stubFor(liveObjectName("La Liga", "2025/26", 3));
    const a = await connect(stub, "user-a");
    const b = await connect(stub, "user-b");
    await a.next();
    await b.next();
    await stub.notify();
    const users = (await stub.connections()).map((x) => x.userId).sort();
    expect(users).toEqual(["user-a", "user-b"]);
    const stored = await runInDurableObject(stub, async (_instance, state) => ({
      seq: await state.storage.get<number>("seq"),
      sockets: state.getWebSockets().length,
      tags: state
        .getWebSockets()
        .flatMap((ws) => state.getTags(ws))
        .sort(),
    }));
    expect(stored).toEqual({ seq: 1, sockets: 2, tags: ["user-a", "user-b"] });
    const changedAt = await runInDurableObject(stub, (_instance, state) => state.storage.get<number>("changedAt"));
    expect(typeof changedAt).toBe("number");
    a.ws.close(1000, "done");
    b.ws.close(1000, "done");
  });

  it("a page that reconnects after missing changes, or loses a message, resyncs and revalidates (use-live's sequence logic)", async () => {
    const stub = stubFor(liveObjectName("Ligue 1", "2025/26", 4));
    const page = liveSequence();
    const step = (m: LiveMessage) => page.received(JSON.stringify(m));

    let c = await connect(stub, "u1");
    expect(page.opened()).toBeNull(); // the first connect sends nothing
    expect(step(await c.next())).toEqual({ reply: null, revalidate: false }); // hello, seq 0
    await stub.notify();
    expect(step(await c.next())).toEqual({ reply: null, revalidate: true }); // changed 1
    c.ws.close(1000, "network gone");

    // two changes while the page is away
    await stub.notify();
    await stub.notify();
    c = await connect(stub, "u1");
    const resync = page.opened();
    expect(resync).toBe(JSON.stringify({ resync: 1 }));
    expect(step(await c.next())).toEqual({ reply: null, revalidate: false }); // hello 3: the resync answers instead
    c.ws.send(resync!);
    expect(await c.next()).toEqual({ seq: 3, kind: "resync", changed: true });
    expect(step(c.messages.at(-1)!)).toEqual({ reply: null, revalidate: true });
    expect(page.lastSeq).toBe(3);

    // a message lost on an open socket: the next one shows the gap, the page asks, the answer revalidates
    await stub.notify();
    await stub.notify();
    await c.next(); // changed 4: lost on its way
    const gap = step(await c.next()); // changed 5
    expect(gap).toEqual({ reply: JSON.stringify({ resync: 3 }), revalidate: false });
    c.ws.send(gap.reply!);
    expect(await c.next()).toEqual({ seq: 5, kind: "resync", changed: true });
    expect(step(c.messages.at(-1)!)).toEqual({ reply: null, revalidate: true });

    // a reconnect that missed nothing: no revalidation
    c.ws.close(1000, "network gone");
    c = await connect(stub, "u1");
    await c.next(); // hello 5
    c.ws.send(page.opened()!);
    expect(await c.next()).toEqual({ seq: 5, kind: "resync", changed: false });
    expect(step(c.messages.at(-1)!)).toEqual({ reply: null, revalidate: false });
    c.ws.close(1000, "done");
  });

  it("a change between a page's load and its socket's hello: the hello's changedAt makes the page revalidate once", async () => {
    const stub = stubFor(liveObjectName("Eredivisie", "2025/26", 6));
    // a page that read its data, then a change committed before its socket opened
    const readBefore = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await stub.notify();
    const missed = liveSequence(() => readBefore);
    const c1 = await connect(stub, "u1");
    const hello = await c1.next();
    expect(hello).toMatchObject({ seq: 1, kind: "hello" });
    const changedAt = (hello as { changedAt: number }).changedAt;
    expect(changedAt).toBeGreaterThanOrEqual(readBefore);
    expect(missed.received(JSON.stringify(hello))).toEqual({ reply: null, revalidate: true });
    // the next change revalidates as usual, once
    await stub.notify();
    expect(missed.received(JSON.stringify(await c1.next()))).toEqual({ reply: null, revalidate: true });

    // a page whose data was read well after the last change: nothing to catch up (no needless revalidation)
    const fresh = liveSequence(() => changedAt + 60_000);
    const c2 = await connect(stub, "u2");
    expect(fresh.received(JSON.stringify(await c2.next()))).toEqual({ reply: null, revalidate: false });

    // after hibernation (a new instance of the object) the time comes back from storage with the sequence
    const stored = await runInDurableObject(stub, async (_i, state) => state.storage.get<number>("changedAt"));
    expect(stored).toBeGreaterThanOrEqual(changedAt);
    c1.ws.close(1000, "done");
    c2.ws.close(1000, "done");
  });

  it("keeps separate sequences per match day (one object each)", async () => {
    const md1 = stubFor(liveObjectName("Serie A", "2025/26", 1));
    const md2 = stubFor(liveObjectName("Serie A", "2025/26", 2));
    await md1.notify();
    await md1.notify();
    expect(await md2.notify()).toBe(1);
    expect(await md1.notify()).toBe(3);
  });

  it("refuses a request that is not a WebSocket upgrade, or comes without the Worker's user", async () => {
    const stub = stubFor(liveObjectName("Serie A", "2025/26", 9));
    expect((await stub.fetch("http://live/")).status).toBe(426);
    expect((await stub.fetch("http://live/", { headers: { Upgrade: "websocket" } })).status).toBe(401);
  });
});

describe("GET /live (the web Worker)", () => {
  const url = `${BASE}/live?league=Premier%20League&season=2025%2F26&md=7`;

  it("refuses a socket without a session: 401, before the object is reached", async () => {
    const res = await SELF.fetch(url, { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(401);
    expect(res.webSocket).toBeNull();
  });

  it("refuses a cookie that is not ours (bad signature) as no session", async () => {
    const forged = createCookie("fc_session", { secrets: ["not-the-secret-0123456789abcdef01234567"] });
    const header = await forged.serialize(`7b1f3c2e-9f7a-4c55-8d0e-2f4b8a6c1d3e:${"x".repeat(43)}`);
    const res = await SELF.fetch(url, { headers: { Upgrade: "websocket", Cookie: header.split(";")[0] } });
    expect(res.status).toBe(401);
  });

  it("answers 426 without the upgrade, 400 for an unknown match day, 403 from another site", async () => {
    expect((await SELF.fetch(url)).status).toBe(426);
    expect((await SELF.fetch(`${BASE}/live?league=&season=2025%2F26&md=1`, { headers: { Upgrade: "websocket" } })).status).toBe(400);
    expect((await SELF.fetch(`${BASE}/live?league=X&season=2025%3Cscript%3E&md=1`, { headers: { Upgrade: "websocket" } })).status).toBe(
      400,
    );
    const cross = await SELF.fetch(url, { headers: { Upgrade: "websocket", Origin: "https://evil.example" } });
    expect(cross.status).toBe(403);
  });

  it("with a well-signed session cookie checks the session in the database first (down here: 503, no socket)", async () => {
    const cookie = createCookie("fc_session", { secrets: ["workers-test-secret-0123456789abcdef0123"] });
    const header = await cookie.serialize(`7b1f3c2e-9f7a-4c55-8d0e-2f4b8a6c1d3e:${"x".repeat(43)}`);
    const res = await SELF.fetch(url, { headers: { Upgrade: "websocket", Cookie: header.split(";")[0] } });
    expect(res.status).toBe(503);
    expect(res.webSocket).toBeNull();
  });
});
