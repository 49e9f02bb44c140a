/**
 * What the benchmarks share: the database behind the app as `npm run bench` sets it up (a fresh PostgreSQL with
 * the migrations and demo data, PgBouncer in transaction mode in front as production's Hyperdrive pools), and the
 * workerd CPU counter. Used by scripts/bench.ts and scripts/bench-rush.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { freePort, prepareDatabase } from "./app-server";
import { ensurePgBouncer, startPgBouncer, type PgBouncerOptions } from "./pgbouncer";
import { createTestDatabase, startPostgres, startPostgresCluster, type TestServer } from "../tests/support/pg";

export interface BenchDatabase {
  pg: TestServer;
  /** The database itself (migrated, demo data loaded). */
  databaseUrl: string;
  /** PgBouncer in front of it, or null (no pooler: BENCH_POOL=0, or PgBouncer could not be installed). */
  pooler: { url: string; poolSize: number; stop(): void } | null;
  /** What the Worker connects to: the pooler when there is one. */
  appUrl: string;
  stop(): Promise<void>;
}

/**
 * A fresh PostgreSQL (a cluster of this run's own with `restartable`, which fault runs stop and start; else
 * startPostgres's choice), migrated with demo data, behind PgBouncer unless BENCH_POOL=0.
 */
export async function startBenchDatabase(opts: { restartable?: boolean; pgbouncer?: PgBouncerOptions } = {}): Promise<BenchDatabase> {
  const pg = opts.restartable ? await startPostgresCluster() : await startPostgres();
  if (!pg) throw new Error("this benchmark stops and starts PostgreSQL: it needs Debian's postgresql package (/usr/lib/postgresql)");
  const databaseUrl = await createTestDatabase(pg.url);
  await prepareDatabase(databaseUrl, { seed: true });
  // Hyperdrive pools connections in production; PgBouncer (transaction mode) models that here.
  const poolWanted = process.env.BENCH_POOL !== "0";
  const pooler = poolWanted && ensurePgBouncer() ? await startPgBouncer(databaseUrl, await freePort(), opts.pgbouncer) : null;
  if (poolWanted && !pooler) {
    console.warn(
      "\n!!! WARNING: PgBouncer is not installed and could not be installed (needs root and apt-get).\n" +
        "!!! This benchmark measures WITHOUT connection pooling: every request opens and authenticates a new\n" +
        "!!! PostgreSQL connection, a cost production Hyperdrive does not pay. Install Debian's pgbouncer.\n",
    );
  }
  return {
    pg,
    databaseUrl,
    pooler,
    appUrl: pooler?.url ?? databaseUrl,
    async stop() {
      pooler?.stop();
      await pg.stop();
    },
  };
}

export interface ProcessStat {
  pid: number;
  ppid: number;
  comm: string;
  /** user + system CPU seconds so far */
  cpu: number;
}

/** Every process on the machine, from /proc (throws where /proc is missing). */
export function readProcesses(): ProcessStat[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return [{ pid: Number(pid), ppid: Number(f[1]), comm, cpu: (Number(f[11]) + Number(f[12])) / 100 }];
      } catch {
        return [];
      }
    });
}

/** Whether a process of `procs` is `rootPid` or one of its descendants. */
export function descendantOf(procs: ProcessStat[], rootPid: number): (pid: number) => boolean {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const under = (pid: number): boolean => pid === rootPid || (byPid.has(pid) && pid > 1 && under(byPid.get(pid)!.ppid));
  return under;
}

/** The processes named `name` under `rootPid` (wrangler dev and its workerd). */
function processesUnder(rootPid: number, name: string): ProcessStat[] {
  const procs = readProcesses();
  const under = descendantOf(procs, rootPid);
  return procs.filter((p) => p.comm === name && under(p.pid));
}

/** CPU seconds used so far by the processes named `name` under `rootPid` (wrangler dev and its workerd). */
export function treeCpuSeconds(rootPid: number | undefined, name: string): number {
  if (rootPid === undefined) return NaN;
  try {
    return processesUnder(rootPid, name).reduce((sum, p) => sum + p.cpu, 0);
  } catch {
    return NaN;
  }
}

/** The ids of the processes named `name` under `rootPid` (empty where /proc is missing). */
export function treePids(rootPid: number | undefined, name: string): number[] {
  if (rootPid === undefined) return [];
  try {
    return processesUnder(rootPid, name).map((p) => p.pid);
  } catch {
    return [];
  }
}
