import net from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLatencyProxy, type LatencyProxy } from "../../scripts/latency-proxy";

/** Postgres-framed messages: an untyped startup message, then typed ones (type byte + int32 length). */
const startup = () => {
  const b = Buffer.alloc(8);
  b.writeInt32BE(8, 0);
  b.writeInt32BE(196608, 4);
  return b;
};
const msg = (type: string, body = "") => {
  const b = Buffer.alloc(5 + body.length);
  b.write(type, 0, "latin1");
  b.writeInt32BE(4 + body.length, 1);
  b.write(body, 5, "latin1");
  return b;
};

// A fake server: answers the startup message with ReadyForQuery, and every Sync or Query with
// "data... ReadyForQuery" written in two separate chunks.
let server: net.Server;
let proxy: LatencyProxy;
const serverSaw: Buffer[] = [];

beforeAll(async () => {
  server = net.createServer((s) => {
    s.setNoDelay(true);
    let started = false;
    s.on("data", (d: Buffer) => {
      serverSaw.push(d);
      if (!started) {
        started = true;
        s.write(msg("Z", "I"));
        return;
      }
      for (let i = 0; i < d.length;) {
        const type = String.fromCharCode(d[i]);
        const len = d.readInt32BE(i + 1);
        if (type === "S" || type === "Q") {
          s.write(msg("D", "row"));
          setTimeout(() => s.write(msg("Z", "I")), 1);
        }
        i += 1 + len;
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  proxy = await startLatencyProxy({ target: { host: "127.0.0.1", port: (server.address() as net.AddressInfo).port }, delayMs: 0 });
});

afterAll(async () => {
  await proxy.stop();
  await new Promise((r) => server.close(r));
});

/** A client that can send and wait for n ReadyForQuery messages. */
async function client() {
  const s = net.connect(proxy.port, "127.0.0.1");
  s.setNoDelay(true);
  await new Promise((r) => s.once("connect", r));
  let ready = 0;
  let waiters: (() => void)[] = [];
  s.on("data", (d: Buffer) => {
    for (let i = d.indexOf("Z"); i >= 0; i = d.indexOf("Z", i + 1)) ready++;
    waiters.forEach((w) => w());
  });
  const until = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => ready >= n && ((waiters = waiters.filter((w) => w !== check)), resolve());
      waiters.push(check);
      check();
    });
  return { s, until, ready: () => ready };
}

test("counts start-up and query round trips; pipelined sends and a lone Terminate add none", async () => {
  proxy.reset();
  const c = await client();
  c.s.write(startup());
  await c.until(1); // start-up: 1
  c.s.write(msg("Q", "select 1\0"));
  await c.until(2); // query: 1
  // Two statements sent back to back before any reply: one round trip.
  c.s.write(msg("Q", "select 2\0"));
  c.s.write(msg("Q", "select 3\0"));
  await c.until(4);
  c.s.write(msg("X"));
  await proxy.settle(20);
  const snap = proxy.snapshot();
  expect(snap.connections).toBe(1);
  expect(snap.startupRoundTrips).toBe(1);
  expect(snap.queryRoundTrips).toBe(2);
  expect(snap.roundTrips).toBe(3);
  expect(snap.statements).toBe(3);
  c.s.destroy();
});

test("delays each direction and keeps byte order", async () => {
  proxy.reset();
  proxy.setDelay(20);
  try {
    const c = await client();
    c.s.write(startup());
    await c.until(1);
    serverSaw.length = 0;
    const t = performance.now();
    const parts = Array.from({ length: 50 }, (_, i) => msg("Q", `select ${i}\0`));
    for (const p of parts) c.s.write(p);
    await c.until(51);
    const elapsed = performance.now() - t;
    expect(elapsed).toBeGreaterThanOrEqual(39);
    expect(Buffer.concat(serverSaw).equals(Buffer.concat(parts))).toBe(true);
    // Pipelined while the replies were in flight: one round trip (plus start-up).
    expect(proxy.snapshot().roundTrips).toBe(2);
    c.s.destroy();
  } finally {
    proxy.setDelay(0);
  }
});

test("markers select the connections whose client bytes carry them", async () => {
  proxy.reset();
  const a = await client();
  const b = await client();
  a.s.write(startup());
  b.s.write(startup());
  await Promise.all([a.until(1), b.until(1)]);
  a.s.write(msg("Q", "select 'marker-a'\0"));
  b.s.write(msg("Q", "select 'other'\0"));
  await Promise.all([a.until(2), b.until(2)]);
  await proxy.settle(20);
  expect(proxy.snapshot().connections).toBe(2);
  const only = proxy.snapshot({ markers: ["marker-a"] });
  expect(only.connections).toBe(1);
  expect(only.roundTrips).toBe(2);
  a.s.destroy();
  b.s.destroy();
});
