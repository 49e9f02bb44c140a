import path from "node:path";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import { startPostgres, createTestDatabase } from "../support/pg";
import { prepareDatabase, startWorker, workerVars } from "../../scripts/app-server";
import { serveCounters, startLatencyProxy } from "../../scripts/latency-proxy";
import { E2E } from "./env";

/**
 * A fresh database with migrations and demo data, and the built Worker under wrangler dev. The Worker reaches
 * the database through the latency proxy (scripts/latency-proxy.ts, no added delay) so that
 * tests/e2e/round-trips.spec.ts can count the database round trips of a request: its counters are served at
 * E2E_RTT_URL.
 */
export default async function globalSetup() {
  const started = Date.now();
  const server = await startPostgres();
  const databaseUrl = await createTestDatabase(server.url);
  await prepareDatabase(databaseUrl, { seed: true });
  const proxy = await startLatencyProxy({ target: databaseUrl, delayMs: 0 });
  const counters = await serveCounters(proxy);
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-e2e-"));
  const vars = workerVars(stateDir, "test", {
    TEST_CLOCK: "enabled",
    GA_MEASUREMENT_ID: E2E.measurementId,
    ANALYTICS_SCRIPT_URL: E2E.analyticsScriptUrl,
    VAPID_PUBLIC_KEY: E2E.vapidPublicKey,
  });
  // the scheduler Worker a spec starts in this registry is what the web Worker's FEED_SYNC binding reaches
  const registryDir = path.join(stateDir, "dev-registry");
  const worker = await startWorker({
    port: Number(process.env.E2E_PORT),
    databaseUrl: proxy.url,
    stateDir,
    registryDir,
    quiet: !process.env.E2E_VERBOSE,
    vars,
  });
  // The test processes inherit these: arranging in the database, and signing session cookies the way the
  // Worker does (fixtures.ts loginAs).
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_SESSION_SECRET = vars.SESSION_SECRET;
  process.env.E2E_RTT_URL = counters.url;
  process.env.E2E_REGISTRY_DIR = registryDir;
  console.log(`[e2e] app at ${worker.url} on ${server.kind} (ready in ${Date.now() - started} ms)`);
  return async () => {
    await worker.stop();
    await counters.stop();
    await proxy.stop();
    await server.stop();
  };
}
