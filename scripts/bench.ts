/**
 * `npm run bench`: serves the built app under wrangler dev on a fresh database and prints, from one run,
 * requests per second and p50/p95 latency of server-rendered pages against a static file of the same
 * server (as ratios), and the gzip size of the JavaScript the browser loads for a page.
 */
import path from "node:path";
import os from "node:os";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { ROOT, buildApp, freePort, prepareDatabase, startWorker, workerVars } from "./app-server";
import { startPostgres, createTestDatabase } from "../tests/support/pg";
import postgres from "postgres";
import { seedScale } from "./db/seed-scale";
import { havePgBouncer, startPgBouncer } from "./pgbouncer";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

interface Stats {
  rps: number;
  p50: number;
  p95: number;
  /** CPU time of the workerd processes per request (Linux /proc), or NaN where /proc is missing. */
  cpuMs: number;
}

/** CPU seconds used so far by the processes under `rootPid` (wrangler dev and its workerd). */
function treeCpuSeconds(rootPid: number | undefined, name: string): number {
  if (rootPid === undefined) return NaN;
  try {
    const procs = readdirSync("/proc")
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
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const under = (pid: number): boolean => pid === rootPid || (byPid.has(pid) && pid > 1 && under(byPid.get(pid)!.ppid));
    return procs.filter((p) => p.comm === name && under(p.pid)).reduce((sum, p) => sum + p.cpu, 0);
  } catch {
    return NaN;
  }
}

let workerPid: number | undefined;

async function load(url: string, headers: Record<string, string> = {}): Promise<Stats> {
  const cpuBefore = treeCpuSeconds(workerPid, "workerd");
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  async function lane() {
    while (next < REQUESTS) {
      next++;
      const t = performance.now();
      const res = await fetch(url, { headers, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
      times.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  const cpuMs = ((treeCpuSeconds(workerPid, "workerd") - cpuBefore) * 1000) / times.length;
  return { rps: times.length / elapsed, p50: pct(50), p95: pct(95), cpuMs };
}

/** gzip bytes of every script the page references (entry, route modules and their modulepreloads). */
export async function firstLoadJs(base: string, pathname: string, headers: Record<string, string> = {}) {
  const html = await (await fetch(base + pathname, { headers })).text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) srcs.add(m[1]);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) srcs.add(m[1]);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)|from "([^"]+\.js)"/g)) srcs.add(m[1] ?? m[2]);
  let raw = 0;
  let gz = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  return { files: srcs.size, raw, gz };
}

const fmt = (s: Stats) =>
  `${s.rps.toFixed(0).padStart(6)} req/s   p50 ${s.p50.toFixed(1).padStart(7)} ms   p95 ${s.p95.toFixed(1).padStart(7)} ms   workerd CPU ${s.cpuMs.toFixed(2).padStart(5)} ms/request`;

async function main() {
  if (process.env.SKIP_BUILD !== "1") await buildApp((m) => console.log(m));
  const pg = await startPostgres();
  const databaseUrl = await createTestDatabase(pg.url);
  await prepareDatabase(databaseUrl, { seed: true });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-bench-"));
  // Hyperdrive pools connections in production; PgBouncer (transaction mode) models that here when installed.
  const pooler = process.env.BENCH_POOL !== "0" && havePgBouncer() ? await startPgBouncer(databaseUrl, await freePort()) : null;
  const worker = await startWorker({ port: await freePort(), databaseUrl: pooler?.url ?? databaseUrl, stateDir, quiet: true, vars: workerVars(stateDir, "test") });
  workerPid = worker.process.pid;
  try {
    console.log(`\nFootyCoach benchmark: wrangler dev + ${pg.kind}${pooler ? " behind PgBouncer (transaction pooling, as Hyperdrive)" : " (a new connection per request: no pooler installed)"}, ${REQUESTS} requests per target, ${CONCURRENCY} concurrent, ${os.cpus().length} cores\n`);
    // Warm both paths, then measure them back to back in the same run.
    await load(`${worker.url}/favicon.svg`);
    await load(`${worker.url}/login`);
    const staticFile = await load(`${worker.url}/favicon.svg`);
    const login = await load(`${worker.url}/login`);
    console.log(`static /favicon.svg   ${fmt(staticFile)}`);
    console.log(`SSR    /login         ${fmt(login)}`);
    console.log(`ratio  /login p50 / static p50 = ${(login.p50 / staticFile.p50).toFixed(2)} (target <= 3)`);
    console.log(`ratio  static rps / /login rps = ${(staticFile.rps / login.rps).toFixed(2)}`);
    const js = await firstLoadJs(worker.url, "/login");
    console.log(`\nfirst-load JavaScript for /login: ${js.files} files, ${(js.raw / 1024).toFixed(1)} KB raw, ${(js.gz / 1024).toFixed(1)} KB gzip (target <= 120 KB)`);

    // Signed-in pages on demo data scaled up.
    const scale = { players: 5000, competitions: 200, perPlayer: 8, demoPlayerJoins: 20 };
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const t0 = performance.now();
    await seedScale(sql, scale);
    const [counts] = await sql`select (select count(*) from competitions)::int as competitions, (select count(*) from profiles)::int as players,
                                      (select count(*) from user_selections)::int as memberships`;
    await sql.end();
    console.log(`\nscaled demo data in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${counts.competitions} competitions, ${counts.players} players, ${counts.memberships} memberships`);
    const signIn = await fetch(`${worker.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: worker.url },
      body: "email=player%40footycoach.test&password=footycoach",
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    if (!cookie.startsWith("fc_session=")) throw new Error(`login failed: ${signIn.status}`);
    const headers = { Cookie: cookie };
    await load(`${worker.url}/dashboard`, headers);
    const staticAgain = await load(`${worker.url}/favicon.svg`);
    const dashboard = await load(`${worker.url}/dashboard`, headers);
    const competitions = await load(`${worker.url}/competitions`, headers);
    const dashboardData = await load(`${worker.url}/dashboard.data`, headers);
    console.log(`static /favicon.svg   ${fmt(staticAgain)}`);
    console.log(`SSR    /dashboard     ${fmt(dashboard)}`);
    console.log(`data   /dashboard.data ${fmt(dashboardData)}  (the same loaders, no HTML)`);
    console.log(`SSR    /competitions  ${fmt(competitions)}`);
    console.log(`ratio  /dashboard p50 / static p50 = ${(dashboard.p50 / staticAgain.p50).toFixed(2)} (target <= 4)`);
    console.log(`ratio  /competitions p50 / static p50 = ${(competitions.p50 / staticAgain.p50).toFixed(2)}`);
    console.log(`ratio  workerd CPU per request, /dashboard / static = ${(dashboard.cpuMs / staticAgain.cpuMs).toFixed(2)}, /competitions / static = ${(competitions.cpuMs / staticAgain.cpuMs).toFixed(2)}`);
    const djs = await firstLoadJs(worker.url, "/dashboard", headers);
    console.log(`first-load JavaScript for /dashboard: ${djs.files} files, ${(djs.raw / 1024).toFixed(1)} KB raw, ${(djs.gz / 1024).toFixed(1)} KB gzip (target <= 150 KB)`);
  } finally {
    await worker.stop();
    pooler?.stop();
    await pg.stop();
  }
  void ROOT;
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
