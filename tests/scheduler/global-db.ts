/**
 * Vitest global setup of the scheduler tests: a real database with the real migrations (tests/support/pg.ts:
 * Debian's PostgreSQL when installed, PGlite otherwise) reachable at the fixed port the Worker's Hyperdrive
 * binding names (tests/scheduler/ports.ts), through a plain TCP relay since the server itself takes a free port.
 */
import net from "node:net";
import type { TestProject } from "vitest/node";
import { connect, createTestDatabase, prepareTemplate, startPostgres, TEMPLATE_DB } from "../support/pg";
import { tolerateProxySocketErrorsFromNowOn } from "../support/teardown-socket-guard";
import { SCHEDULER_DB_NAME, SCHEDULER_DB_PORT } from "./ports";

export default async function setup(project: TestProject) {
  const started = Date.now();
  const server = await startPostgres();
  const template = await prepareTemplate(server);
  let target: URL;
  if (server.kind === "postgres") {
    const admin = connect(server.url, { max: 1 });
    try {
      await admin.unsafe(`create database ${SCHEDULER_DB_NAME} template ${TEMPLATE_DB}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    target = new URL(server.url);
  } else {
    target = new URL(await createTestDatabase(server.url, { templateDump: template.templateDump }));
  }
  // The far side of every relayed connection is miniflare's local Hyperdrive, which has no handler for a reset
  // connection: an RST from here fails the whole run. So the relay only ever closes towards it gracefully (FIN).
  const clients = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    clients.add(client);
    const upstream = net.connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    upstream.on("error", () => client.end());
    client.on("error", () => upstream.destroy());
    client.on("close", () => {
      clients.delete(client);
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    relay.once("error", reject);
    relay.listen(SCHEDULER_DB_PORT, "127.0.0.1", resolve);
  });
  console.log(
    `[scheduler db] ${server.kind} with migrated database ${SCHEDULER_DB_NAME} on port ${SCHEDULER_DB_PORT} in ${Date.now() - started} ms`,
  );
  // the same key as the database tests' setup: itOnRealPostgres (tests/support/real-postgres.ts) reads it
  project.provide("dbKind", server.kind);
  return async () => {
    tolerateProxySocketErrorsFromNowOn();
    // Unreferenced and still listening: a connection miniflare opens while the run winds down must not be refused
    // (also an unhandled error there). Open ones are ended gracefully before the server goes.
    relay.unref();
    for (const client of clients) client.end();
    await new Promise((r) => setTimeout(r, 300));
    await template.cleanup();
    await server.stop();
  };
}
