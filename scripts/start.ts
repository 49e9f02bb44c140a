/** `npm start`: the embedded database (or DATABASE_URL), migrations, demo data, build, and wrangler dev. */
import path from "node:path";
import { ROOT, buildApp, startDatabase, startWorker, workerVars } from "./app-server";

const PUSH_VARS = [
  "VAPID_PUBLIC_KEY",
  "FIREBASE_API_KEY",
  "FIREBASE_PROJECT_ID",
  "FIREBASE_MESSAGING_SENDER_ID",
  "FIREBASE_APP_ID",
  "FIREBASE_VAPID_KEY",
] as const;

const log = (m: string) => console.log(`[footycoach] ${m}`);

async function main() {
  const port = Number(process.env.PORT ?? 8787);
  const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? ".data");
  const db = await startDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, seed: true, log });
  log(db.kind === "pglite" ? `embedded database in ${dataDir}` : "using DATABASE_URL");
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let stopping = false;
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log("stopping...");
    await worker?.stop();
    await db.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  try {
    if (process.env.SKIP_BUILD !== "1") await buildApp(log);
    worker = await startWorker({
      port,
      databaseUrl: db.url,
      vars: workerVars(dataDir, "development", {
        DB_EMBEDDED: db.kind === "pglite" ? "1" : "0",
        ...(process.env.GA_MEASUREMENT_ID ? { GA_MEASUREMENT_ID: process.env.GA_MEASUREMENT_ID } : {}),
        // Browser push (decision 014): public values, passed through when set.
        ...Object.fromEntries(PUSH_VARS.filter((name) => process.env[name]).map((name) => [name, process.env[name]!])),
      }),
      stateDir: path.join(dataDir, "wrangler"),
    });
  } catch (error) {
    console.error(error);
    await shutdown(1);
    return;
  }
  worker.process.once("exit", () => void shutdown(0));
  console.log(`
  FootyCoach is running at ${worker.url}

  Demo accounts (password: footycoach)
    player  player@footycoach.test
    admin   admin@footycoach.test

  Local mail outbox: ${worker.url}/dev/outbox
  Press Ctrl-C to stop.
`);
}

void main();
