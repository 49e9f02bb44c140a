/**
 * Throwaway databases for tests and benchmarks.
 *
 * startPostgres(): TEST_DATABASE_URL if set; else a fresh Debian PostgreSQL cluster (binaries under
 * /usr/lib/postgresql/<v>/bin, run as user postgres when we are root) in a temp dir on a free port; else PGlite
 * served by pglite-socket. TEST_DB=pglite forces PGlite, TEST_DB=postgres forces the real server.
 *
 * createTestDatabase(adminUrl): a fresh, migrated database. On PostgreSQL it is `create database tN template
 * footy_template` (the template is migrated once per run). PGlite has one database per instance, so there a
 * new in-process PGlite is started from a dump of the migrated template (or migrated from scratch when no dump
 * is at hand) and served on its own port.
 */
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { migrate } from "../../scripts/db/migrate";
import { freePort } from "../../scripts/free-port";

const run = promisify(execFile);

export type DbKind = "postgres" | "pglite";

export interface TestServer {
  url: string;
  kind: DbKind;
  stop(): Promise<void>;
  /** A server this run started (Debian PostgreSQL): shut it down (fast mode) and start it again, keeping its data. */
  halt?(): Promise<void>;
  resume?(): Promise<void>;
}

interface PgliteServer extends TestServer {
  kind: "pglite";
  /** Tarball of the instance's data directory (uncompressed). */
  dump(): Promise<Blob>;
}

export const TEMPLATE_DB = "footy_template";
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../supabase/migrations");

/** A postgres.js client with settings that suit both servers (no named prepared statements: PGlite's
 * socket server multiplexes connections onto one session). */
export function connect(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> = {}) {
  return postgres(url, { max: 4, prepare: false, onnotice: () => {}, idle_timeout: 20, ...options });
}

/** The newest /usr/lib/postgresql/<v>/bin holding initdb and pg_ctl, or null. */
export function findPostgresBin(root = "/usr/lib/postgresql"): string | null {
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")) && existsSync(path.join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

export async function detectKind(url: string): Promise<DbKind> {
  const sql = connect(url, { max: 1 });
  try {
    const [{ version }] = await sql<{ version: string }[]>`select version()`;
    return /pglite/i.test(version) ? "pglite" : "postgres";
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function startPostgres(): Promise<TestServer> {
  const forced = process.env.TEST_DB?.toLowerCase();
  if (forced && forced !== "pglite" && forced !== "postgres") {
    throw new Error(`TEST_DB must be "pglite" or "postgres", not "${process.env.TEST_DB}"`);
  }
  if (process.env.TEST_DATABASE_URL && forced !== "pglite") {
    const url = process.env.TEST_DATABASE_URL;
    return { url, kind: await detectKind(url), stop: async () => {} };
  }
  if (forced !== "pglite") {
    const bin = findPostgresBin();
    if (bin) return startClusterServer(bin);
    if (forced === "postgres") throw new Error("TEST_DB=postgres but no PostgreSQL binaries under /usr/lib/postgresql");
  }
  return startPgliteServer();
}

// ---------------------------------------------------------------------------------------------------------
// Debian PostgreSQL: a throwaway cluster

/** A throwaway Debian PostgreSQL cluster (with halt/resume), or null where the binaries are missing. */
export async function startPostgresCluster(): Promise<TestServer | null> {
  const bin = findPostgresBin();
  return bin ? startClusterServer(bin) : null;
}

async function startClusterServer(bin: string): Promise<TestServer> {
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), "footy-pg-"));
  const dataDir = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    await chown(dir, uid, gid);
  }
  // PostgreSQL refuses to run as root: run its programs as user postgres then.
  const pg = (program: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args]) : run(path.join(bin, program), args);

  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c synchronous_commit=off",
    "-c max_connections=200",
  ].join(" ");
  const start = () => pg("pg_ctl", ["-D", dataDir, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "-o", options, "start"]);
  try {
    await pg("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    await start();
  } catch (error) {
    const log = await readFile(path.join(dir, "server.log"), "utf8").catch(() => "");
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL from ${bin}: ${(error as Error).message}\n${log}`);
  }

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    try {
      const args = ["-D", dataDir, "-m", "immediate", "-w", "stop"];
      if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, "pg_ctl"), ...args], { stdio: "ignore" });
      else execFileSync(path.join(bin, "pg_ctl"), args, { stdio: "ignore" });
    } catch {
      // already gone
    }
  };
  // Never leave a server behind, even when the run is interrupted.
  process.once("exit", stopSync);

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kind: "postgres",
    async halt() {
      await pg("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    },
    async resume() {
      await start();
    },
    async stop() {
      if (stopped) return;
      await pg("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => {});
      stopped = true;
      process.removeListener("exit", stopSync);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// PGlite behind pglite-socket

async function startPgliteServer(loadDataDir?: Blob): Promise<PgliteServer> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pgcrypto } = await import("@electric-sql/pglite/contrib/pgcrypto");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create({ extensions: { pgcrypto }, ...(loadDataDir ? { loadDataDir } : {}) });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 32 });
  await server.start();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kind: "pglite",
    dump: () => db.dumpDataDir("none"),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Template and per-test databases

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function migrateUrl(url: string): Promise<void> {
  const sql = connect(url, { max: 1 });
  try {
    await migrate(sql, MIGRATIONS_DIR);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface PreparedTemplate {
  /** For PGlite: path of a data-dir tarball of the migrated template, for createTestDatabase. */
  templateDump?: string;
  cleanup(): Promise<void>;
}

/**
 * Builds the migrated template once per run. PostgreSQL: (re)creates database footy_template and migrates it.
 * PGlite started here: migrates the server's database and writes a dump of it to a temp file.
 */
export async function prepareTemplate(server: TestServer): Promise<PreparedTemplate> {
  if (server.kind === "postgres") {
    const admin = connect(server.url, { max: 1 });
    try {
      await admin.unsafe(`drop database if exists ${TEMPLATE_DB}`);
      await admin.unsafe(`create database ${TEMPLATE_DB}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    await migrateUrl(withDatabase(server.url, TEMPLATE_DB));
    return { cleanup: async () => {} };
  }
  await migrateUrl(server.url);
  const dump = (server as Partial<PgliteServer>).dump;
  if (!dump) return { cleanup: async () => {} }; // an external PGlite: each test database migrates itself
  const dir = await mkdtemp(path.join(os.tmpdir(), "footy-pglite-"));
  const file = path.join(dir, "template.tar");
  await writeFile(file, Buffer.from(await (await dump()).arrayBuffer()));
  return { templateDump: file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface CreateOptions {
  /** PGlite: dump of the migrated template (from prepareTemplate); without it the new database is migrated. */
  templateDump?: string;
  /** An empty database (no migrations), e.g. to test the runner itself. */
  empty?: boolean;
}

const stoppers = new Map<string, () => Promise<void>>();
let counter = 0;

/** A fresh database for one test file; returns its URL. Release it with dropTestDatabase(url). */
export async function createTestDatabase(adminUrl: string, options: CreateOptions = {}): Promise<string> {
  const kind = await detectKind(adminUrl);
  if (kind === "pglite") {
    const blob = !options.empty && options.templateDump ? new Blob([await readFile(options.templateDump)]) : undefined;
    const server = await startPgliteServer(blob);
    if (!options.empty && !blob) await migrateUrl(server.url);
    stoppers.set(server.url, () => server.stop());
    return server.url;
  }

  const name = `footy_t${process.pid}_${++counter}_${randomBytes(3).toString("hex")}`;
  const admin = connect(adminUrl, { max: 1 });
  try {
    if (!options.empty) {
      // Normally built by the global setup; built here when a caller (e.g. a benchmark) comes on its own.
      await admin`select pg_advisory_lock(7301, 3)`;
      try {
        const [exists] = await admin`select 1 from pg_database where datname = ${TEMPLATE_DB}`;
        if (!exists) {
          await admin.unsafe(`create database ${TEMPLATE_DB}`);
          await migrateUrl(withDatabase(adminUrl, TEMPLATE_DB));
        }
      } finally {
        await admin`select pg_advisory_unlock(7301, 3)`;
      }
    }
    await admin.unsafe(`create database ${name}${options.empty ? "" : ` template ${TEMPLATE_DB}`}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = withDatabase(adminUrl, name);
  stoppers.set(url, async () => {
    const sql = connect(adminUrl, { max: 1 });
    try {
      await sql.unsafe(`drop database if exists ${name} with (force)`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
  return url;
}

/** Drops a database made by createTestDatabase (PostgreSQL) or stops its PGlite instance. */
export async function dropTestDatabase(url: string): Promise<void> {
  const stop = stoppers.get(url);
  stoppers.delete(url);
  if (stop) await stop();
}

/**
 * For test files: a fresh database from the run's template (global setup values via inject) and a client on
 * it. Call in beforeAll; call close() in afterAll.
 */
export async function useTestDatabase(options: Omit<CreateOptions, "templateDump"> = {}) {
  const { inject } = await import("vitest");
  const url = await createTestDatabase(inject("dbAdminUrl"), {
    ...options,
    templateDump: inject("dbTemplateDump") || undefined,
  });
  const sql = connect(url);
  return {
    url,
    sql,
    kind: inject("dbKind"),
    async close() {
      await sql.end({ timeout: 5 });
      await dropTestDatabase(url);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Acting as a player inside a transaction (as the server does)

export interface ActAs {
  /** The application clock for this transaction (`app.now`). */
  now?: Date;
  /** Default authenticated; anon for a signed-out caller. */
  role?: "authenticated" | "anon";
}

/**
 * Runs fn in a transaction as the API role with auth.uid() = userId (null: no claims), like the server's
 * player path. Everything is transaction-local, so it is safe on PGlite's shared session too.
 */
export async function asUser<T>(
  sql: postgres.Sql,
  userId: string | null,
  fn: (tx: postgres.TransactionSql) => Promise<T>,
  { now, role = "authenticated" }: ActAs = {},
): Promise<T> {
  const claims = userId ? JSON.stringify({ sub: userId, role }) : "";
  return (await sql.begin(async (tx) => {
    await tx`select set_config('request.jwt.claims', ${claims}, true),
                    set_config('app.now', ${now ? now.toISOString() : ""}, true),
                    set_config('role', ${role}, true)`;
    return fn(tx);
  })) as T;
}

/** The SQLSTATE of a rejected promise (throws if it resolved). */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? `no code: ${(error as Error).message}`;
  }
  throw new Error("expected the statement to fail, but it succeeded");
}
