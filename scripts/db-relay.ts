/**
 * The local Worker's way to the database: a TCP relay between wrangler's local Hyperdrive proxy and the database
 * (PostgreSQL, PgBouncer or the embedded PGlite socket server), doing locally what Hyperdrive does at the edge
 * when its origin is unreachable: the Worker's connection gets a PostgreSQL error, never a dead socket.
 *
 * Why (decision 024): miniflare's local Hyperdrive proxy (miniflare 4.20260426, hyperdrive-proxy.ts) opens its
 * socket to the database with no 'error' handler, so a refused or reset connection there is an uncaught
 * exception that ends `wrangler dev` (and with it `npm start`): a PostgreSQL restart behind DATABASE_URL, or the
 * embedded server dropping a connection over its limit, killed the app for good. With this relay in between,
 * miniflare only ever talks to this relay, which never refuses and never resets:
 * - the database refuses (stopped, restarting): the relay answers the client's startup with the ErrorResponse a
 *   PostgreSQL server sends while it cannot accept connections (SQLSTATE 57P03), then ends the socket politely.
 *   The Worker's postgres.js reports it and the app answers its 503 page (app/db/errors.server.ts).
 * - the database drops a connection (shut down mid-query, reset): the relay ends the client's socket politely
 *   (FIN after what was already received), so postgres.js sees the connection closed: again a 503, never a crash.
 * - `maxUpstream`: at most this many connections to the database at once; further clients wait for a free one
 *   (the embedded server drops connections over its limit instead of queueing them).
 * The next request connects afresh, so service returns by itself as soon as the database accepts connections.
 */
import net from "node:net";

export interface DbRelay {
  /** The database URL with host and port replaced by the relay's. */
  url: string;
  port: number;
  /** Counts since start: connections relayed, refused with 57P03, cut by the database, waiting for a slot now. */
  stats(): { connections: number; refused: number; cut: number; waiting: number; open: number };
  stop(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** A PostgreSQL ErrorResponse message (severity FATAL). */
export function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0`, "utf8"), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/**
 * Answers a client whose database cannot be reached: 'N' to an SSL or GSS request, then the 57P03 error once its
 * startup message has arrived, then a polite end.
 */
function refuse(client: net.Socket) {
  // The client is paused until now: what it sent so far (its startup message) arrives on resume.
  let pending = Buffer.alloc(0);
  const answer = () => {
    while (pending.length >= 8) {
      const length = pending.readInt32BE(0);
      const code = pending.readInt32BE(4);
      if (length === 8 && (code === SSL_REQUEST || code === GSSENC_REQUEST)) {
        client.write("N");
        pending = pending.subarray(8);
        continue;
      }
      client.end(errorResponse("57P03", "the database system is not accepting connections"));
      return true;
    }
    return false;
  };
  client.on("data", (chunk: Buffer) => {
    if (client.writableEnded) return;
    pending = Buffer.concat([pending, chunk]);
    answer();
  });
  client.resume();
}

export async function startDbRelay(opts: { target: string; port?: number; maxUpstream?: number }): Promise<DbRelay> {
  const target = new URL(opts.target);
  const host = target.hostname;
  const targetPort = Number(target.port || 5432);
  const limit = opts.maxUpstream ?? Infinity;
  const counts = { connections: 0, refused: 0, cut: 0 };
  const open = new Set<net.Socket>();
  let upstreams = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    upstreams--;
    waiting.shift()?.();
  };

  const relay = (client: net.Socket) => {
    counts.connections++;
    open.add(client);
    client.setNoDelay(true);
    client.pause();
    let connected = false;
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      release();
    };
    client.on("error", () => {
      // The Worker side went away (a request ended): drop the database side too.
      upstream.destroy();
    });
    client.on("close", () => {
      open.delete(client);
      upstream.destroy();
    });
    const upstream = net.connect({ host, port: targetPort });
    upstream.setNoDelay(true);
    upstream.once("connect", () => {
      connected = true;
      client.on("data", (chunk: Buffer) => {
        if (!upstream.write(chunk)) client.pause();
      });
      upstream.on("drain", () => client.resume());
      client.on("end", () => upstream.end());
      client.resume();
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!client.destroyed && !client.write(chunk)) upstream.pause();
    });
    client.on("drain", () => upstream.resume());
    upstream.on("end", () => {
      if (!client.destroyed) client.end();
    });
    upstream.on("error", () => {
      if (client.destroyed) return;
      if (!connected) {
        counts.refused++;
        refuse(client);
      } else {
        // Cut by the database: end politely (a FIN, never a reset, reaches the local Hyperdrive proxy).
        counts.cut++;
        client.end();
      }
    });
    upstream.on("close", done);
  };

  const server = net.createServer((client) => {
    client.on("error", () => {});
    if (upstreams < limit) {
      upstreams++;
      relay(client);
      return;
    }
    client.pause();
    const go = () => {
      // A client that left while waiting gives its turn to the next.
      if (client.destroyed) return void waiting.shift()?.();
      upstreams++;
      relay(client);
    };
    waiting.push(go);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(opts.target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    port,
    stats: () => ({ ...counts, waiting: waiting.length, open: open.size }),
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
