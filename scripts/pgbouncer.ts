/**
 * A local stand-in for Hyperdrive's connection pooling in benchmarks: PgBouncer (Debian's package) in
 * transaction mode in front of the test Postgres. Without it every Worker request opens and authenticates
 * a fresh server connection, a cost production does not pay (Hyperdrive keeps pooled connections).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";

const BIN = "/usr/sbin/pgbouncer";

export function havePgBouncer(): boolean {
  return existsSync(BIN);
}

/**
 * Installs Debian's pgbouncer when it is missing and this user can (root with apt-get), as
 * scripts/install-test-deps.sh does for PostgreSQL. Returns whether pgbouncer is there afterwards.
 */
export function ensurePgBouncer(log: (m: string) => void = console.log): boolean {
  if (havePgBouncer()) return true;
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (!root || !apt) {
    log(`[setup] pgbouncer is missing and cannot be installed here (${root ? "no apt-get" : "not root"})`);
    return false;
  }
  log("[setup] installing pgbouncer from Debian");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  const install =
    update.status === 0 &&
    spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "pgbouncer"], { stdio: ["ignore", "ignore", "inherit"], env });
  if (!install || install.status !== 0) log("[setup] apt-get could not install pgbouncer");
  return havePgBouncer();
}

async function waitForPort(port: number, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("pgbouncer did not start");
}

export interface PgBouncerOptions {
  /** Server connections per database and user (default 8). */
  poolSize?: number;
  /** How long a client waits for a server connection before PgBouncer answers an error (default: PgBouncer's 120 s). */
  queryWaitTimeoutSeconds?: number;
  /** Wait after a failed server login before trying again (default: PgBouncer's 15 s). */
  serverLoginRetrySeconds?: number;
}

export async function startPgBouncer(
  databaseUrl: string,
  listenPort: number,
  opts: PgBouncerOptions = {},
): Promise<{ url: string; poolSize: number; stop(): void }> {
  const poolSize = opts.poolSize ?? 8;
  const target = new URL(databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "footycoach-pgbouncer-"));
  chmodSync(dir, 0o777);
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    `[databases]\n* = host=${target.hostname} port=${target.port} user=${target.username || "postgres"}\n\n` +
      `[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${listenPort}\nauth_type = any\npool_mode = transaction\n` +
      `max_client_conn = 500\ndefault_pool_size = ${poolSize}\nlogfile = ${dir}/pgbouncer.log\npidfile = ${dir}/pgbouncer.pid\n` +
      `unix_socket_dir = ${dir}\nignore_startup_parameters = extra_float_digits,options\n` +
      (opts.queryWaitTimeoutSeconds ? `query_wait_timeout = ${opts.queryWaitTimeoutSeconds}\n` : "") +
      (opts.serverLoginRetrySeconds ? `server_login_retry = ${opts.serverLoginRetrySeconds}\n` : ""),
  );
  chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root.
  const asRoot = process.getuid?.() === 0;
  const child = asRoot ? spawn("runuser", ["-u", "postgres", "--", BIN, ini], { stdio: "ignore" }) : spawn(BIN, [ini], { stdio: "ignore" });
  await waitForPort(listenPort);
  const url = new URL(databaseUrl);
  url.port = String(listenPort);
  return {
    url: url.toString(),
    poolSize,
    stop() {
      child.kill("SIGTERM");
      spawnSync("pkill", ["-f", ini]);
    },
  };
}
