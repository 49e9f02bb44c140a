/** `npm start`: the embedded database (or DATABASE_URL), migrations, demo data, build, and wrangler dev. */
import path from "node:path";
import postgres from "postgres";
import { ROOT, buildApp, freePort, localVapidKeys, startDatabase, startSchedulerWorker, startWorker, workerVars } from "./app-server";
import { OriginalTablesRefused } from "./db/original-guard";
import { startFeedSimulator, type FeedSimulator } from "./feed-simulator";

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
  const db = await startDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, seed: true, log }).catch((error: unknown) => {
    // The original app's tables (DATABASE_URL naming the hosted project before db:adopt): one line, nothing changed.
    if (!(error instanceof OriginalTablesRefused)) throw error;
    console.error(error.message);
    process.exit(2);
  });
  log(db.kind === "pglite" ? `embedded database in ${dataDir}` : "using DATABASE_URL");
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let scheduler: Awaited<ReturnType<typeof startWorker>> | undefined;
  let simulator: FeedSimulator | undefined;
  // the scheduler's data feed settings (set below)
  let feed: Record<string, string> = {};
  let stopping = false;
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log("stopping...");
    await scheduler?.stop();
    await simulator?.stop();
    await worker?.stop();
    await db.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  try {
    if (process.env.SKIP_BUILD !== "1") await buildApp(log);
    // Local push keys unless the environment brings its own: the browser subscribes with the public key.
    const vapid = process.env.VAPID_PUBLIC_KEY
      ? { publicKey: process.env.VAPID_PUBLIC_KEY, privateKey: process.env.VAPID_PRIVATE_KEY ?? "" }
      : localVapidKeys(dataDir);
    // One dev registry for both Workers: the scheduler's LIVE binding reaches this web Worker's LiveMatchDay
    // objects, so the feed's live scores reach open pages (decision 022), and this web Worker's FEED_SYNC reaches
    // the scheduler, so Sync now syncs at once (decision 027); no other local app's.
    const registryDir = path.join(dataDir, "wrangler-registry");
    worker = await startWorker({
      port,
      registryDir,
      databaseUrl: db.url,
      vars: workerVars(dataDir, "development", {
        DB_EMBEDDED: db.kind === "pglite" ? "1" : "0",
        ...(process.env.GA_MEASUREMENT_ID ? { GA_MEASUREMENT_ID: process.env.GA_MEASUREMENT_ID } : {}),
        // Browser push (decision 014): public values, passed through when set.
        ...Object.fromEntries(PUSH_VARS.filter((name) => process.env[name]).map((name) => [name, process.env[name]!])),
        VAPID_PUBLIC_KEY: vapid.publicKey,
      }),
      stateDir: path.join(dataDir, "wrangler"),
    });
    // The data feed (decision 020): the local simulator when FEED_SIMULATOR=1 (its league linked here), else
    // football-data.org itself when FOOTBALL_DATA_TOKEN is set (link leagues in /admin/feed), else nothing to read.
    if (process.env.FEED_SIMULATOR === "1") {
      simulator = await startFeedSimulator({
        databaseUrl: db.url,
        minuteMs: Number(process.env.FEED_SIMULATOR_MINUTE_MS) || undefined,
        log: (m) => log(`feed simulator: ${m}`),
      });
      await linkSimulatedLeague(db.url, simulator);
      feed = { FOOTBALL_DATA_URL: simulator.url, FOOTBALL_DATA_TOKEN: simulator.token };
    } else if (process.env.FOOTBALL_DATA_TOKEN) {
      feed = {
        FOOTBALL_DATA_TOKEN: process.env.FOOTBALL_DATA_TOKEN,
        ...(process.env.FOOTBALL_DATA_URL ? { FOOTBALL_DATA_URL: process.env.FOOTBALL_DATA_URL } : {}),
      };
    }
    // The scheduler Worker (cron + push queue). Pushes go to the development outbox unless PUSH_PROVIDER=live.
    scheduler = await startSchedulerWorker({
      port: Number(process.env.SCHEDULER_PORT ?? (await freePort())),
      databaseUrl: db.url,
      vars: {
        ENVIRONMENT: "development",
        PUSH_PROVIDER: process.env.PUSH_PROVIDER ?? "outbox",
        APP_URL: worker.url,
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        ...(process.env.FCM_SERVICE_ACCOUNT ? { FCM_SERVICE_ACCOUNT: process.env.FCM_SERVICE_ACCOUNT } : {}),
        ...feed,
      },
      stateDir: path.join(dataDir, "wrangler-scheduler"),
      registryDir,
    });
  } catch (error) {
    console.error(error);
    await shutdown(1);
    return;
  }
  worker.process.once("exit", () => void shutdown(0));
  scheduler.process.once("exit", () => void shutdown(0));
  // wrangler dev does not fire crons by itself: tick at every quarter hour as production's trigger would.
  const tickUrl = `${scheduler.url}/__scheduled?cron=*/15+*+*+*+*`;
  const scheduleTick = () => {
    const quarter = 15 * 60_000;
    setTimeout(
      () => {
        fetch(tickUrl).catch((error) => log(`scheduler tick failed: ${(error as Error).message}`));
        scheduleTick();
      },
      quarter - (Date.now() % quarter),
    ).unref();
  };
  scheduleTick();
  // ... and the data feed's cron every minute (it decides itself which linked league is due).
  const feedTickUrl = `${scheduler.url}/__scheduled?cron=*+*+*+*+*`;
  const scheduleFeedTick = () => {
    setTimeout(
      () => {
        fetch(feedTickUrl).catch((error) => log(`feed tick failed: ${(error as Error).message}`));
        scheduleFeedTick();
      },
      60_000 - (Date.now() % 60_000),
    ).unref();
  };
  scheduleFeedTick();
  console.log(`
  FootyCoach is running at ${worker.url}

  Demo accounts (password: footycoach)
    player  player@footycoach.test
    admin   admin@footycoach.test

  Local mail and push outbox: ${worker.url}/dev/outbox
  Scheduler Worker: ${scheduler.url} (cron every 15 minutes in production; run one tick now with
    curl "${scheduler.url}/__scheduled?cron=*/15+*+*+*+*")
  Data feed: ${
    simulator
      ? `the local simulator at ${simulator.url} plays ${simulator.league} ${simulator.season}` +
        (simulator.matchDay ? `, match day ${simulator.matchDay}` : "") +
        " (results arrive every minute: see /admin/feed and /admin/fixtures as admin)"
      : feed.FOOTBALL_DATA_TOKEN
        ? "football-data.org (link leagues in /admin/feed)"
        : "off (FEED_SIMULATOR=1 npm start plays the current match day from a local simulator)"
  }
  Press Ctrl-C to stop.
`);
}

/** Links the simulator's league (as an admin's Link would) so the first feed tick syncs it. */
async function linkSimulatedLeague(databaseUrl: string, simulator: FeedSimulator) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into public.feed_leagues (league, season, code, season_year, linked, linked_at, sync_requested_at)
      values (${simulator.league}, ${simulator.season}, ${simulator.code}, ${simulator.seasonYear}, true, now(), now())
      on conflict (league, season) do update
        set linked = true, sync_requested_at = now(), next_attempt_at = null, failures = 0, paused_until = null`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

void main();
