/**
 * Starts the pieces of a local FootyCoach: the database (embedded PGlite behind pglite-socket, or the
 * Postgres named by DATABASE_URL), its migrations and first-time demo data, and the web Worker under
 * `wrangler dev`. Used by `npm start`, the browser tests and the benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrate } from "./db/migrate";
import { seedDemo } from "./db/seed";
import { freePort } from "./free-port";
import { startDbRelay } from "./db-relay";
import { generateVapidKeys } from "./vapid-keys";

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface Database {
  url: string;
  kind: "pglite" | "external";
  seeded: boolean;
  stop(): Promise<void>;
}

/** Applies migrations and, on a database without accounts, the demo data (dated relative to `now`). */
export async function prepareDatabase(url: string, opts: { seed: boolean; now?: Date; log?: (m: string) => void }) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const applied = await migrate(sql);
    if (applied.length) opts.log?.(`applied ${applied.length} migration(s)`);
    const seeded = opts.seed ? await seedDemo(sql, opts.now ?? new Date()) : false;
    if (seeded) opts.log?.("loaded demo data");
    return seeded;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Connections the embedded database's socket server takes at once (more wait in its relay). */
export const EMBEDDED_MAX_CONNECTIONS = 32;

/** The embedded database: PGlite keeping its files in `dataDir`, served on a local port. */
export async function startEmbeddedDatabase(dataDir: string, port?: number): Promise<{ url: string; stop(): Promise<void> }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pgcrypto } = await import("@electric-sql/pglite/contrib/pgcrypto");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pgdata"), { extensions: { pgcrypto } });
  // One connection is pglite-socket's default; the Worker opens one per request (docs/architecture.md).
  const server = new PGLiteSocketServer({ db, port: await freePort(), host: "127.0.0.1", maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  // The socket server drops (resets) a connection over its limit; the relay queues it instead (decision 024).
  const relay = await startDbRelay({
    target: `postgres://postgres@127.0.0.1:${server.getServerConn().split(":").pop()}/postgres`,
    port,
    maxUpstream: EMBEDDED_MAX_CONNECTIONS,
  });
  return {
    url: relay.url,
    async stop() {
      await relay.stop();
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
    },
  };
}

export async function startDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  seed: boolean;
  now?: Date;
  log?: (m: string) => void;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const seeded = await prepareDatabase(opts.databaseUrl, opts);
    return { url: opts.databaseUrl, kind: "external", seeded, stop: async () => {} };
  }
  const embedded = await startEmbeddedDatabase(opts.dataDir);
  try {
    const seeded = await prepareDatabase(embedded.url, opts);
    return { url: embedded.url, kind: "pglite", seeded, stop: () => embedded.stop() };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/** Worker variables for local serving; the session secret is made once and kept with the data. */
export function workerVars(dataDir: string, environment: "development" | "test", extra: Record<string, string> = {}) {
  mkdirSync(dataDir, { recursive: true });
  const secretFile = path.join(dataDir, "session-secret");
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  return {
    ENVIRONMENT: environment,
    SESSION_SECRET: readFileSync(secretFile, "utf8").trim(),
    MAIL_PROVIDER: "outbox",
    ...extra,
  };
}

/**
 * This machine's VAPID key pair for local push (made once, kept with the data, never committed): the web Worker
 * hands the public key to the browser, the scheduler signs with the private one.
 */
export function localVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "vapid-keys.json");
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(generateVapidKeys()), { mode: 0o600 });
  return JSON.parse(readFileSync(file, "utf8")) as { publicKey: string; privateKey: string };
}

export function buildApp(log?: (m: string) => void): Promise<void> {
  log?.("building the app (remix vite:build)...");
  return run(path.join(ROOT, "node_modules/.bin/remix"), ["vite:build"], { quiet: true });
}

export function run(cmd: string, args: string[], opts: { quiet?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${output}`))));
  });
}

export interface Worker {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Serves a Worker with `wrangler dev` (workerd): the built web Worker unless `config` names another; in its own
 * process group so it stops whole. */
export async function startWorker(opts: {
  port: number;
  databaseUrl: string;
  vars: Record<string, string>;
  stateDir: string;
  quiet?: boolean;
  /** A fixed DevTools inspector port (for profiling); a random one by default. */
  inspectorPort?: number;
  /** Another Worker's wrangler config (the scheduler's); the web Worker's wrangler.toml by default. */
  config?: string;
  /** Serve /__scheduled to run one cron tick (wrangler dev --test-scheduled). */
  testScheduled?: boolean;
  /** The path that answers once the Worker is up (below 500). */
  readyPath?: string;
  /**
   * wrangler's dev registry (WRANGLER_REGISTRY_PATH): the Workers started with the same one reach each other's
   * bindings (the scheduler's LIVE -> the web Worker's LiveMatchDay objects, decision 022). Each start gets one of
   * its own in `stateDir` unless given, so two local apps on one machine (tests, benchmarks, npm start) never bind
   * each other's footycoach-web.
   */
  registryDir?: string;
}): Promise<Worker> {
  mkdirSync(opts.stateDir, { recursive: true });
  // The local Hyperdrive reaches the database through a relay that answers a PostgreSQL error while the database
  // is down instead of a refused or reset socket, which would end wrangler dev (scripts/db-relay.ts, decision 024).
  const relay = await startDbRelay({ target: opts.databaseUrl });
  // wrangler's local Hyperdrive insists on a password in the URL; trust-auth servers ignore it.
  const hyperdriveUrl = new URL(relay.url);
  if (!hyperdriveUrl.password) hyperdriveUrl.password = "postgres";
  const envFile = path.join(opts.stateDir, `worker-${opts.port}.env`);
  const extraArgs = [...(opts.config ? ["--config", opts.config] : []), ...(opts.testScheduled ? ["--test-scheduled"] : [])];
  writeFileSync(
    envFile,
    Object.entries(opts.vars)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
    { mode: 0o600 },
  );
  const child = spawn(
    path.join(ROOT, "node_modules/.bin/wrangler"),
    [
      "dev",
      "--port",
      String(opts.port),
      "--ip",
      "127.0.0.1",
      "--env-file",
      envFile,
      "--persist-to",
      opts.stateDir,
      "--show-interactive-dev-session=false",
      "--log-level",
      opts.quiet ? "error" : "log",
      "--inspector-port",
      String(opts.inspectorPort ?? 0),
      ...extraArgs,
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", opts.quiet ? "ignore" : "inherit", opts.quiet ? "pipe" : "inherit"],
      env: {
        ...process.env,
        CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: hyperdriveUrl.toString(),
        WRANGLER_REGISTRY_PATH: opts.registryDir ?? path.join(opts.stateDir, "dev-registry"),
        // wrangler dev otherwise bundles React's development build (NODE_ENV defaults to "development" there),
        // several times slower to render than what `wrangler deploy` ships.
        NODE_ENV: "production",
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_HIDE_BANNER: "true",
        NO_UPDATE_NOTIFIER: "1",
        // A failed socket of the local Hyperdrive proxy closes both of its ends instead of ending the process.
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import ${path.join(ROOT, "scripts/wrangler-socket-guard.mjs")}`]
          .filter(Boolean)
          .join(" "),
      },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return void (await relay.stop());
    const exited = new Promise((r) => child.once("exit", r));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // exited after SIGTERM
      }
    }, 3000);
    await exited;
    clearTimeout(timer);
    await relay.stop();
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await relay.stop();
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${stderr}`);
    }
    try {
      const res = await fetch(`${url}${opts.readyPath ?? "/login"}`, { redirect: "manual" });
      if (res.status < 500) return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within 90 s:\n${stderr}`);
}

/**
 * The scheduler Worker (workers/scheduler, decision 013) under `wrangler dev --test-scheduled`: /__scheduled runs
 * one tick now, /cdn-cgi/handler/scheduled?time=<ms> one at a chosen time.
 */
export function startSchedulerWorker(opts: {
  port: number;
  databaseUrl: string;
  stateDir: string;
  vars: Record<string, string>;
  quiet?: boolean;
  /** The web Worker's dev registry, for the LIVE binding (see startWorker); without it nobody is told. */
  registryDir?: string;
}): Promise<Worker> {
  return startWorker({ ...opts, config: path.join(ROOT, "workers/scheduler/wrangler.toml"), testScheduled: true, readyPath: "/" });
}

/** The demo player (scripts/db/seed.ts). */
export const DEMO_PLAYER = { email: "player@footycoach.test", password: "footycoach" };

/** Signs the demo player in through the app's own log-in form; the session cookie ("fc_session=..."). */
export async function signInDemoPlayer(base: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams(DEMO_PLAYER),
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  if (!cookie.startsWith("fc_session=")) throw new Error(`login failed: ${res.status}`);
  return cookie;
}
