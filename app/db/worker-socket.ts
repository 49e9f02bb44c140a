import { Buffer } from "node:buffer";
import { EventEmitter } from "node:events";

/**
 * The TCP socket postgres.js talks through in the Workers runtime (its `socket` option), on `cloudflare:sockets`.
 *
 * Why not postgres.js's own: its Workers socket hands each chunk it reads to the protocol parser as
 * `Buffer.from(chunk)`, a copy (`fromArrayLike` in workerd's node:buffer). `npm run profile:page --
 * /dashboard` put that copy at about a tenth of the web Worker's sampled CPU for a page (decision 023, addendum 2).
 * Each chunk a stream reader returns is a fresh array nothing else holds or changes, so a Buffer view of it is
 * enough: that is the one difference. The rest keeps the interface postgres.js's connection uses: 'data', 'error',
 * 'close' and 'drain' events, write(data, callback), end(), destroy(), readyState, and raw/writer/reader/read for
 * its STARTTLS upgrade (`tls.connect` in postgres.js's Workers build) when a connection string asks for TLS.
 */
export type WorkerSocket = EventEmitter & {
  readyState: "opening" | "open" | "upgrading" | "upgrade" | "closed";
  raw: ReturnType<typeof import("cloudflare:sockets").connect> | null;
  writer: WritableStreamDefaultWriter | null;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  destroyed: boolean;
  write(data: Uint8Array, callback?: () => void): boolean;
  end(data?: Uint8Array): void;
  destroy(): void;
  read(): Promise<void>;
};

/** postgres.js calls this with its parsed options once per connection; the socket it returns is open. */
export async function openWorkerSocket(options: {
  host: string[];
  port: number[];
  ssl?: unknown;
  connect_timeout?: number;
}): Promise<WorkerSocket> {
  const { connect } = await import("cloudflare:sockets");
  const tls = Boolean(options.ssl);
  const socket = Object.assign(new EventEmitter(), {
    readyState: "opening",
    raw: null,
    writer: null,
    reader: null,
    destroyed: false,
    write(data: Uint8Array, callback?: () => void) {
      socket.writer!.write(data).then(() => callback?.(), failed);
      return true;
    },
    end(data?: Uint8Array) {
      if (data) socket.write(data, () => void socket.raw?.close());
      else void socket.raw?.close();
    },
    destroy() {
      socket.destroyed = true;
      socket.end();
    },
    async read() {
      try {
        for (;;) {
          const { done, value } = await socket.reader!.read();
          if (done) return;
          socket.emit("data", view(value));
        }
      } catch (error) {
        // postgres.js's STARTTLS upgrade releases this reader while a read waits: not a failure
        if (socket.readyState !== "upgrading") failed(error);
      }
    },
  }) as WorkerSocket;

  function failed(error: unknown) {
    socket.emit("error", error);
    closed();
  }
  function closed() {
    if (socket.readyState === "closed") return;
    socket.readyState = "closed";
    socket.emit("close");
  }

  const raw = connect(`${options.host[0]}:${options.port[0]}`, { secureTransport: tls ? "starttls" : "off", allowHalfOpen: false });
  // A refused connection rejects `opened` (thrown to postgres.js below, which answers its query with the error)
  // and `closed`: no 'error' event before postgres.js listens.
  raw.closed.catch(() => {});
  // postgres.js starts its connect_timeout only once this returns: the wait for the socket is bounded here.
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      raw.opened,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("connect timed out")), (options.connect_timeout ?? 30) * 1000);
      }),
    ]);
  } catch (error) {
    void raw.close().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  socket.raw = raw;
  raw.closed.then(
    () => {
      if (socket.raw === raw) closed(); // after a STARTTLS upgrade the upgraded socket reports its own close
    },
    (error: unknown) => {
      if (socket.raw === raw) failed(error);
    },
  );
  socket.writer = raw.writable.getWriter();
  socket.reader = raw.readable.getReader();
  socket.readyState = "open";
  if (tls) {
    // The server's one-byte answer to SSLRequest; postgres.js upgrades the socket after it.
    void socket.reader.read().then(({ value }) => value && socket.emit("data", view(value)), failed);
  } else void socket.read();
  return socket;
}

/** A Buffer over the chunk's own bytes (no copy). */
function view(chunk: Uint8Array): Buffer {
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
