/**
 * vitest globalSetup: a local stand-in for a Postgres server that is up but refusing connections. It speaks
 * the real wire protocol: it declines SSL and answers the startup message with the ErrorResponse a
 * PostgreSQL server sends while it cannot accept connections (SQLSTATE 57P03), then closes.
 */
import net from "node:net";
import { tolerateProxySocketErrorsFromNowOn } from "../support/teardown-socket-guard";

// Below the ephemeral range (32768 and up), so an outgoing connection never holds it.
export const DOWN_DB_PORT = 29399;

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0`, "utf8"), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export default async function setup() {
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      // SSLRequest: length 8, code 80877103 -> answer 'N' (no SSL) and wait for the startup message.
      if (chunk.length === 8 && chunk.readInt32BE(4) === 80877103) {
        socket.write("N");
        return;
      }
      socket.end(errorResponse("57P03", "the database system is not accepting connections"));
    });
  });
  await new Promise<void>((resolve) => server.listen(DOWN_DB_PORT, "127.0.0.1", resolve));
  // Never closed: miniflare's local Hyperdrive may still connect while the run winds down, and a refused
  // connection there is an unhandled error that fails the run. Unreferenced, it does not keep the process alive.
  return () => {
    tolerateProxySocketErrorsFromNowOn();
    server.unref();
  };
}
