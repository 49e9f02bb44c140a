import path from "node:path";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import { startPostgres, createTestDatabase } from "../support/pg";
import { prepareDatabase, startWorker, workerVars } from "../../scripts/app-server";
import { E2E } from "./env";

/** A fresh database with migrations and demo data, and the built Worker under wrangler dev. */
export default async function globalSetup() {
  const started = Date.now();
  const server = await startPostgres();
  const databaseUrl = await createTestDatabase(server.url);
  await prepareDatabase(databaseUrl, { seed: true });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-e2e-"));
  const vars = workerVars(stateDir, "test", {
    TEST_CLOCK: "enabled",
    GA_MEASUREMENT_ID: E2E.measurementId,
    ANALYTICS_SCRIPT_URL: E2E.analyticsScriptUrl,
  });
  const worker = await startWorker({
    port: Number(process.env.E2E_PORT),
    databaseUrl,
    stateDir,
    quiet: !process.env.E2E_VERBOSE,
    vars,
  });
  // The test processes inherit these: arranging in the database, and signing session cookies the way the
  // Worker does (fixtures.ts loginAs).
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_SESSION_SECRET = vars.SESSION_SECRET;
  console.log(`[e2e] app at ${worker.url} on ${server.kind} (ready in ${Date.now() - started} ms)`);
  return async () => {
    await worker.stop();
    await server.stop();
  };
}
