/**
 * A TCP proxy for the Postgres wire protocol that adds network latency and counts database round trips.
 *
 * It sits between wrangler's local Hyperdrive (whose localConnectionString points here) and the database
 * (PgBouncer or Postgres):  workerd -> miniflare's Hyperdrive proxy -> THIS -> PgBouncer -> Postgres.
 * In production the Worker runs at the edge and the database is 50-150 ms away, so what a request costs is
 * its number of database round trips; this proxy makes that number visible (and felt) locally.
 *
 * Latency: every chunk is forwarded `delayMs` after it arrived (one-way delay, default 25 ms, so an RTT of
 * 50 ms; 0 forwards at once). Chunks of one direction go out in arrival order, never reordered: each is
 * queued with due time max(arrival + delay, due time of the chunk before it). TCP_NODELAY is set on both
 * sockets so the proxy adds no Nagle stalls of its own.
 *
 * Round trip (the definition the counters use): a burst of client->server data after which the client
 * waits for the server. Counted per client connection as follows: the client's first data on a connection
 * is one round trip; after that, client data counts as a new round trip when server data has been DELIVERED
 * to the client since the client last sent anything (the direction turned server->client->server). Client
 * data sent while the server's reply is still on its way (pipelining) belongs to the round trip in flight.
 * A client write holding only a Terminate message ('X', the polite goodbye) waits for nothing and is not
 * counted. The TCP handshake itself is not counted (connections are counted separately).
 * Each round trip is "startup" when it begins before the server's first ReadyForQuery on that connection
 * (StartupMessage, authentication), else "query". The number of statements the client sent (simple Query
 * messages plus extended-protocol Sync messages) is counted too, and so are Flush messages: postgres.js
 * without prepared statements sends a statement that has parameters as Parse/Describe/Flush, waits for the
 * parameter types, then sends Bind/Execute/Sync, so such a statement costs two round trips and is never
 * pipelined with the next one.
 *
 * At a delay of 0 the count depends on timing only where the client sends without waiting for a reply it
 * does not need (true pipelining) yet after that reply has already come back; at RTT 50 ms the same client
 * pipelines for real. The e2e spec checks that the counts it asserts are stable.
 *
 * Programmatic: `const p = await startLatencyProxy({ target: databaseUrl })`, then p.url (the database URL
 * through the proxy), p.setDelay(ms), p.reset(), p.snapshot({ markers }), p.stop().
 * Over HTTP (`serveCounters(p)`): GET /snapshot[?marker=...&settle=ms], POST /reset, POST /delay?ms=N.
 * A marker filters the snapshot to connections whose client bytes contain that string (any of several), so
 * a test can count only its own requests while other tests use the same database.
 * CLI: tsx scripts/latency-proxy.ts --target postgres://... [--port N] [--delay 25] [--http-port M]
 */
import net from "node:net";
import http from "node:http";

export interface LatencyProxyOptions {
  /** The database (or pooler) URL, or host and port. */
  target: string | { host: string; port: number };
  /** Port to listen on (127.0.0.1); 0 or absent: a free port. */
  port?: number;
  /** One-way delay in ms, applied to each direction (RTT = 2 x delay). Default 25. */
  delayMs?: number;
}

export interface ConnectionCounts {
  id: number;
  /** Still open when the snapshot was taken. */
  open: boolean;
  roundTrips: number;
  startupRoundTrips: number;
  queryRoundTrips: number;
  /** Query ('Q') plus Sync ('S') messages the client sent. */
  statements: number;
  /** Flush ('H') messages: postgres.js sends Parse/Describe/Flush and waits before Bind/Execute/Sync. */
  flushes: number;
  bytesUp: number;
  bytesDown: number;
  /** In a snapshot: the statements' text the client sent since the reset (printable characters, cut short), so a
   * count that surprises can be read. */
  sample?: string;
}

export interface Snapshot {
  delayMs: number;
  /** Connections opened since reset (plus the ones open at reset that sent data since). */
  connections: number;
  roundTrips: number;
  startupRoundTrips: number;
  queryRoundTrips: number;
  statements: number;
  flushes: number;
  perConnection: ConnectionCounts[];
}

export interface LatencyProxy {
  port: number;
  host: string;
  /** `databaseUrl` with host and port replaced by the proxy's (when the target was given as a URL). */
  url: string;
  readonly delayMs: number;
  setDelay(ms: number): void;
  /** Forgets closed connections and zeroes the counters of open ones. */
  reset(): void;
  /** Counts since the last reset; with markers, only connections whose client bytes contain one of them. */
  snapshot(filter?: { markers?: string[] }): Snapshot;
  /**
   * Fault injection: the next client chunk whose bytes (latin1) match `pattern` is not forwarded; the
   * connection is cut instead (both sockets closed), as a network failure would. One-shot.
   */
  cutNext(pattern: RegExp): void;
  /** Resolves once no byte has arrived or is waiting to be forwarded for `quietMs` (at most `maxMs`). */
  settle(quietMs?: number, maxMs?: number): Promise<void>;
  stop(): Promise<void>;
}

// Postgres protocol codes of the untyped first messages.
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Client bytes kept per connection for marker filtering (a per-request connection sends far less). */
const KEEP_CLIENT_BYTES = 256 * 1024;
/** Closed connections remembered between resets (a long test run may never reset). */
const KEEP_CONNECTIONS = 5000;
/** LATENCY_PROXY_TRACE=1: print every chunk (connection, time, direction, size) to stderr. */
const TRACE = process.env.LATENCY_PROXY_TRACE === "1";

/** Splits a Postgres byte stream into messages across chunk boundaries; reports the type of each message. */
class Framer {
  /** Untyped messages still expected (the client's startup message, or a server's 1-byte SSL answer). */
  private header = Buffer.alloc(0);
  private remaining = 0;
  constructor(
    private untyped: number,
    private readonly onMessage: (type: string, body: Buffer | null) => void,
    /** Server side: untyped answers are single bytes ('S'/'N' to an SSLRequest). */
    private readonly singleByteUntyped = false,
  ) {}

  expectUntyped(n = 1) {
    this.untyped += n;
  }

  push(chunk: Buffer) {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        this.remaining -= take;
        i += take;
        continue;
      }
      if (this.untyped > 0 && this.singleByteUntyped) {
        this.untyped--;
        this.onMessage(String.fromCharCode(chunk[i]), null);
        i++;
        continue;
      }
      const headerLength = this.untyped > 0 ? 8 : 5;
      const need = headerLength - this.header.length;
      const take = Math.min(need, chunk.length - i);
      this.header = Buffer.concat([this.header, chunk.subarray(i, i + take)]);
      i += take;
      if (this.header.length < headerLength) return;
      if (this.untyped > 0) {
        this.untyped--;
        const length = this.header.readInt32BE(0);
        const code = this.header.readInt32BE(4);
        this.onMessage(
          code === SSL_REQUEST ? "ssl" : code === GSSENC_REQUEST ? "gssenc" : code === CANCEL_REQUEST ? "cancel" : "startup",
          null,
        );
        this.remaining = Math.max(0, length - 8);
      } else {
        const type = String.fromCharCode(this.header[0]);
        const length = this.header.readInt32BE(1);
        this.onMessage(type, null);
        this.remaining = Math.max(0, length - 4);
      }
      this.header = Buffer.alloc(0);
    }
  }
}

/** Forwards chunks to a socket after a delay, in order. */
class DelayedPipe {
  private queue: { due: number; chunk: Buffer }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastDue = 0;
  private ending = false;
  constructor(
    private readonly to: net.Socket,
    private readonly delay: () => number,
    private readonly onDeliver: (chunk: Buffer) => void,
  ) {}

  get pending() {
    return this.queue.length > 0;
  }

  push(chunk: Buffer) {
    const due = Math.max(performance.now() + this.delay(), this.lastDue);
    this.lastDue = due;
    this.queue.push({ due, chunk });
    this.pump();
  }

  end() {
    this.ending = true;
    this.pump();
  }

  private pump = () => {
    this.timer = null;
    const now = performance.now();
    while (this.queue.length && this.queue[0].due <= now + 0.5) {
      const { chunk } = this.queue.shift()!;
      if (!this.to.destroyed) this.to.write(chunk);
      this.onDeliver(chunk);
    }
    if (this.queue.length) {
      if (!this.timer) this.timer = setTimeout(this.pump, Math.max(0, this.queue[0].due - now));
    } else if (this.ending && !this.to.destroyed) {
      this.to.end();
    }
  };

  destroy() {
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
  }
}

interface Conn {
  counts: ConnectionCounts;
  clientBytes: Buffer[];
  clientBytesKept: number;
  /** Server data reached the client since the client last sent: its next data starts a new round trip. */
  turned: boolean;
  /** Server has sent its first ReadyForQuery. */
  ready: boolean;
  open: boolean;
  close(): void;
}

export async function startLatencyProxy(opts: LatencyProxyOptions): Promise<LatencyProxy> {
  const target =
    typeof opts.target === "string"
      ? { host: new URL(opts.target).hostname, port: Number(new URL(opts.target).port || 5432) }
      : opts.target;
  let delayMs = opts.delayMs ?? 25;
  let nextId = 1;
  let lastActivity = performance.now();
  let cutPattern: RegExp | null = null;
  const conns = new Set<Conn>();
  const pipes = new Set<DelayedPipe>();

  const server = net.createServer((client) => {
    client.setNoDelay(true);
    client.pause();
    const upstream = net.connect({ host: target.host, port: target.port });
    upstream.setNoDelay(true);
    const counts: ConnectionCounts = {
      id: nextId++,
      open: true,
      roundTrips: 0,
      startupRoundTrips: 0,
      queryRoundTrips: 0,
      statements: 0,
      flushes: 0,
      bytesUp: 0,
      bytesDown: 0,
    };
    const conn: Conn = {
      counts,
      clientBytes: [],
      clientBytesKept: 0,
      turned: true,
      ready: false,
      open: true,
      close() {
        if (!conn.open) return;
        conn.open = false;
        counts.open = false;
        up.destroy();
        down.destroy();
        pipes.delete(up);
        pipes.delete(down);
        client.destroy();
        upstream.destroy();
        trim();
      },
    };
    conns.add(conn);

    // Client messages of the current chunk (to tell a lone Terminate from real work).
    let chunkTypes: string[] = [];
    const clientFramer = new Framer(1, (type) => {
      chunkTypes.push(type);
      if (type === "Q" || type === "S") counts.statements++;
      if (type === "H") counts.flushes++;
      // After an SSL/GSS request the client sends its real startup message (and the server answers 1 byte).
      if (type === "ssl" || type === "gssenc") {
        clientFramer.expectUntyped(1);
        serverFramer.expectUntyped(1);
      }
    });
    const serverFramer = new Framer(
      0,
      (type) => {
        if (type === "Z") conn.ready = true;
      },
      true,
    );
    // Note: the server framer reads untyped answers as single bytes and typed messages otherwise. If TLS
    // is negotiated ('S') the rest is opaque: frames are then garbage, which only affects startup/query labels.

    const up = new DelayedPipe(
      upstream,
      () => delayMs,
      () => (lastActivity = performance.now()),
    );
    const down = new DelayedPipe(
      client,
      () => delayMs,
      () => {
        lastActivity = performance.now();
        conn.turned = true;
      },
    );
    pipes.add(up);
    pipes.add(down);

    client.on("data", (chunk: Buffer) => {
      lastActivity = performance.now();
      if (TRACE) console.error(`[rtt ${counts.id}] ${lastActivity.toFixed(1)} C->S ${chunk.length}B`);
      if (cutPattern?.test(chunk.toString("latin1"))) {
        cutPattern = null;
        conn.close();
        return;
      }
      counts.bytesUp += chunk.length;
      if (conn.clientBytesKept < KEEP_CLIENT_BYTES) {
        conn.clientBytes.push(chunk);
        conn.clientBytesKept += chunk.length;
      }
      chunkTypes = [];
      clientFramer.push(chunk);
      const onlyTerminate = chunkTypes.length > 0 && chunkTypes.every((t) => t === "X");
      if (conn.turned && !onlyTerminate) {
        counts.roundTrips++;
        if (conn.ready) counts.queryRoundTrips++;
        else counts.startupRoundTrips++;
        conn.turned = false;
      }
      up.push(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      lastActivity = performance.now();
      if (TRACE) console.error(`[rtt ${counts.id}] ${lastActivity.toFixed(1)} S->C ${chunk.length}B`);
      counts.bytesDown += chunk.length;
      serverFramer.push(chunk);
      down.push(chunk);
    });
    upstream.once("connect", () => client.resume());
    client.on("end", () => up.end());
    upstream.on("end", () => down.end());
    // Deliver what is still queued for the other side, then close both.
    client.on("close", () => {
      const wait = () => (up.pending ? setTimeout(wait, 5) : conn.close());
      wait();
    });
    upstream.on("close", () => {
      const wait = () => (down.pending ? setTimeout(wait, 5) : conn.close());
      wait();
    });
    client.on("error", () => conn.close());
    upstream.on("error", () => conn.close());
  });

  function trim() {
    if (conns.size <= KEEP_CONNECTIONS) return;
    for (const c of conns) {
      if (conns.size <= KEEP_CONNECTIONS) break;
      if (!c.open) conns.delete(c);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  let url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  if (typeof opts.target === "string") {
    const u = new URL(opts.target);
    u.hostname = "127.0.0.1";
    u.port = String(port);
    url = u.toString();
  }

  return {
    port,
    host: "127.0.0.1",
    url,
    get delayMs() {
      return delayMs;
    },
    setDelay(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`delay must be a number >= 0, not ${ms}`);
      delayMs = ms;
    },
    cutNext(pattern: RegExp) {
      cutPattern = pattern;
    },
    reset() {
      for (const c of [...conns]) {
        if (!c.open) {
          conns.delete(c);
          continue;
        }
        Object.assign(c.counts, {
          roundTrips: 0,
          startupRoundTrips: 0,
          queryRoundTrips: 0,
          statements: 0,
          flushes: 0,
          bytesUp: 0,
          bytesDown: 0,
        });
        c.clientBytes = [];
        c.clientBytesKept = 0;
      }
    },
    snapshot(filter = {}) {
      const markers = (filter.markers ?? []).filter(Boolean);
      const picked = [...conns].filter((c) => {
        if (c.counts.bytesUp === 0 && c.counts.bytesDown === 0) return false;
        if (!markers.length) return true;
        const text = Buffer.concat(c.clientBytes).toString("latin1");
        return markers.some((m) => text.includes(m));
      });
      const sum = (k: keyof ConnectionCounts) => picked.reduce((n, c) => n + (c.counts[k] as number), 0);
      return {
        delayMs,
        connections: picked.length,
        roundTrips: sum("roundTrips"),
        startupRoundTrips: sum("startupRoundTrips"),
        queryRoundTrips: sum("queryRoundTrips"),
        statements: sum("statements"),
        flushes: sum("flushes"),
        perConnection: picked.map((c) => ({ ...c.counts, sample: printable(Buffer.concat(c.clientBytes).toString("latin1")) })),
      };
    },
    async settle(quietMs = 50, maxMs = 5000) {
      const end = performance.now() + maxMs;
      while (performance.now() < end) {
        const busy = [...pipes].some((p) => p.pending);
        if (!busy && performance.now() - lastActivity >= quietMs) return;
        await new Promise((r) => setTimeout(r, Math.max(5, quietMs / 4)));
      }
    },
    async stop() {
      for (const c of [...conns]) c.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The counters over HTTP, for a process that did not start the proxy (a Playwright spec):
 *   GET  /snapshot?marker=a&marker=b&settle=50   the Snapshot as JSON (settle: wait for quiet first)
 *   POST /reset                                  zero the counters
 *   POST /delay?ms=25                            change the one-way delay
 */
export async function serveCounters(proxy: LatencyProxy, port = 0): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => void handle(req, res));
  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://x");
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      if (url.pathname === "/snapshot") {
        const settle = Number(url.searchParams.get("settle") ?? 0);
        if (settle > 0) await proxy.settle(settle);
        return reply(200, proxy.snapshot({ markers: url.searchParams.getAll("marker") }));
      }
      if (url.pathname === "/reset" && req.method === "POST") {
        proxy.reset();
        return reply(200, { ok: true });
      }
      if (url.pathname === "/delay") {
        if (req.method === "POST") proxy.setDelay(Number(url.searchParams.get("ms")));
        return reply(200, { delayMs: proxy.delayMs });
      }
      reply(404, { error: "GET /snapshot, POST /reset, POST /delay?ms=N" });
    } catch (error) {
      reply(400, { error: (error as Error).message });
    }
  }
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Reads a counter endpoint (from serveCounters) from another process. */
export function countersClient(base: string) {
  return {
    async reset() {
      const res = await fetch(`${base}/reset`, { method: "POST" });
      if (!res.ok) throw new Error(`reset: ${res.status}`);
    },
    async snapshot(opts: { markers?: string[]; settleMs?: number } = {}): Promise<Snapshot> {
      const q = new URLSearchParams();
      for (const m of opts.markers ?? []) q.append("marker", m);
      if (opts.settleMs) q.set("settle", String(opts.settleMs));
      const res = await fetch(`${base}/snapshot?${q}`);
      if (!res.ok) throw new Error(`snapshot: ${res.status}`);
      const snapshot: Snapshot = await res.json();
      return snapshot;
    },
    async setDelay(ms: number) {
      const res = await fetch(`${base}/delay?ms=${ms}`, { method: "POST" });
      if (!res.ok) throw new Error(`delay: ${res.status} ${await res.text()}`);
    },
  };
}

async function cli() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const targetArg = arg("target");
  if (!targetArg) {
    console.error("usage: tsx scripts/latency-proxy.ts --target postgres://user@host:port/db [--port N] [--delay 25] [--http-port M]");
    process.exit(2);
  }
  const proxy = await startLatencyProxy({ target: targetArg, port: Number(arg("port") ?? 0), delayMs: Number(arg("delay") ?? 25) });
  const counters = await serveCounters(proxy, Number(arg("http-port") ?? 0));
  console.log(`latency proxy: ${proxy.url} -> ${targetArg} (one-way delay ${proxy.delayMs} ms); counters at ${counters.url}/snapshot`);
  const stop = async () => {
    await counters.stop();
    await proxy.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

if (import.meta.url === `file://${process.argv[1]}`) void cli();

/** The wire bytes' printable runs (the start of each statement's text), joined by " | ", at most 600 characters. */
function printable(wire: string): string {
  const runs = wire.match(/[\x20-\x7e\n]{8,}/g) ?? [];
  const text = runs.map((r) => r.replace(/\s+/g, " ").trim().slice(0, 120)).join(" | ");
  return text.length > 600 ? text.slice(0, 600) + "..." : text;
}
