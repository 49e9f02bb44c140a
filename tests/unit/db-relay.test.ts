/**
 * scripts/db-relay.ts (decision 024): what the local Hyperdrive proxy's database socket sees when the database
 * refuses, drops a connection, or is at its connection limit. Plain TCP servers stand in for the database.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startDbRelay, type DbRelay } from "../../scripts/db-relay";
import { freePort } from "../../scripts/free-port";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function relayTo(port: number, maxUpstream?: number): Promise<DbRelay> {
  const relay = await startDbRelay({ target: `postgres://postgres@127.0.0.1:${port}/postgres`, maxUpstream });
  cleanup.push(() => relay.stop());
  return relay;
}

async function server(onConnection: (socket: net.Socket) => void): Promise<number> {
  const s = net.createServer((socket) => {
    socket.on("error", () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => s.close(() => resolve())));
  return (s.address() as net.AddressInfo).port;
}

/** Connects to the relay, sends `send`, and collects what comes back until the relay ends the socket. */
function talk(port: number, send: Buffer): Promise<{ data: Buffer; ended: "end" | "error" }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(send));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve({ data: Buffer.concat(chunks), ended: "end" }));
    socket.on("error", () => resolve({ data: Buffer.concat(chunks), ended: "error" }));
  });
}

/** A StartupMessage (protocol 3.0, user postgres). */
function startup(): Buffer {
  const body = Buffer.from("user\0postgres\0\0");
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, body]);
}

describe("the database relay", () => {
  it("answers a startup with 57P03 and a polite end when the database refuses connections", async () => {
    const relay = await relayTo(await freePort());
    const { data, ended } = await talk(relay.port, startup());
    expect(ended).toBe("end");
    expect(data[0]).toBe("E".charCodeAt(0));
    expect(data.toString("latin1")).toContain("C57P03");
    expect(relay.stats().refused).toBe(1);
  });

  it("answers 'N' to an SSL request first", async () => {
    const relay = await relayTo(await freePort());
    const ssl = Buffer.alloc(8);
    ssl.writeInt32BE(8, 0);
    ssl.writeInt32BE(80877103, 4);
    const { data } = await talk(relay.port, Buffer.concat([ssl, startup()]));
    expect(data.toString("latin1", 0, 1)).toBe("N");
    expect(data.toString("latin1")).toContain("C57P03");
  });

  it("relays both ways, and ends the client politely (no reset) when the database drops the connection", async () => {
    const port = await server((socket) => {
      socket.once("data", () => {
        socket.write("hello");
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    const relay = await relayTo(port);
    const { data, ended } = await talk(relay.port, startup());
    expect(data.toString()).toBe("hello");
    expect(ended).toBe("end");
  });

  it("queues connections over maxUpstream until one ends", async () => {
    let open = 0;
    let most = 0;
    const port = await server((socket) => {
      open++;
      most = Math.max(most, open);
      socket.once("data", () =>
        setTimeout(() => {
          // Done serving: the relay hands the slot on only after this connection has closed.
          open--;
          socket.end("ok");
        }, 50),
      );
    });
    const relay = await relayTo(port, 2);
    const answers = await Promise.all(Array.from({ length: 5 }, () => talk(relay.port, startup())));
    expect(answers.map((a) => a.data.toString())).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(most).toBe(2);
  });
});
