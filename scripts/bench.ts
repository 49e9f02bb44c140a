/**
 * `npm run bench`: serves the built app under wrangler dev on a fresh database and prints, from one run,
 * requests per second and p50/p95 latency of server-rendered pages against a static file of the same
 * server (as ratios), the gzip size of the JavaScript the browser loads for a page, and at the end one
 * table of every signed-in page and the main writes measured one request at a time as the demo player:
 * database round trips per request, p50/p95 with no added latency and with a database RTT of 50 ms, and
 * workerd CPU per request.
 *
 * The path: wrangler dev (workerd) -> wrangler's local Hyperdrive -> scripts/latency-proxy.ts (adds the
 * delay, counts round trips) -> PgBouncer in transaction mode (installed from Debian when missing and we
 * are root) -> PostgreSQL. BENCH_REQUESTS: requests per target (sequential table: at RTT 0; at RTT 50 ms
 * at most BENCH_RTT_REQUESTS, default min(BENCH_REQUESTS, 20)). BENCH_RTT_MS: the added RTT (default 50).
 */
import path from "node:path";
import os from "node:os";
import { mkdtempSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { ROOT, buildApp, freePort, startWorker, workerVars } from "./app-server";
import postgres from "postgres";
import { seedScale } from "./db/seed-scale";
import { startBenchDatabase, treeCpuSeconds } from "./bench-stack";
import { startLatencyProxy, type LatencyProxy } from "./latency-proxy";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 50);
const RTT_REQUESTS = Number(process.env.BENCH_RTT_REQUESTS ?? Math.min(REQUESTS, 20));

interface Stats {
  rps: number;
  p50: number;
  p95: number;
  /** CPU time of the workerd processes per request (Linux /proc), or NaN where /proc is missing. */
  cpuMs: number;
}

let workerPid: number | undefined;

async function load(url: string, headers: Record<string, string> = {}, pid = workerPid): Promise<Stats> {
  const cpuBefore = treeCpuSeconds(pid, "workerd");
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  async function lane() {
    while (next < REQUESTS) {
      next++;
      const t = performance.now();
      const res = await fetch(url, { headers, redirect: "manual" });
      const body = await res.text();
      if (res.status >= 400) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
      times.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  const cpuMs = ((treeCpuSeconds(pid, "workerd") - cpuBefore) * 1000) / times.length;
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
  const backend = await startBenchDatabase();
  const { pg, databaseUrl, pooler } = backend;
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-bench-"));
  // The latency proxy: no added delay until the round-trip table switches it on.
  const proxy = await startLatencyProxy({ target: pooler?.url ?? databaseUrl, delayMs: 0 });
  const worker = await startWorker({
    port: await freePort(),
    databaseUrl: proxy.url,
    stateDir,
    quiet: true,
    vars: workerVars(stateDir, "test"),
  });
  workerPid = worker.process.pid;
  try {
    console.log(
      `\nFootyCoach benchmark: wrangler dev + latency proxy + ${pg.kind}${pooler ? " behind PgBouncer (transaction pooling, as Hyperdrive)" : " (NO POOLER: a new server connection per request)"}, ${REQUESTS} requests per target, ${CONCURRENCY} concurrent, ${os.cpus().length} cores\n`,
    );
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
    console.log(
      `\nfirst-load JavaScript for /login: ${js.files} files, ${(js.raw / 1024).toFixed(1)} KB raw, ${(js.gz / 1024).toFixed(1)} KB gzip (target <= 120 KB)`,
    );

    // Signed-in pages on demo data scaled up.
    const scale = { players: 5000, competitions: 200, perPlayer: 8, demoPlayerJoins: 20 };
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const t0 = performance.now();
    await seedScale(sql, scale);
    // Seeding updates each competition's row once per membership (its player_count trigger): 40,000 dead row versions
    // that autovacuum would clear soon after a real database's writes. Measured on them, the dashboard's Upcoming
    // query went through 40,188 index entries and 924 heap pages for its 203 rows.
    await sql`vacuum analyze`;
    const [counts] =
      await sql`select (select count(*) from competitions)::int as competitions, (select count(*) from profiles)::int as players,
                                      (select count(*) from user_selections)::int as memberships`;
    await sql.end();
    console.log(
      `\nscaled demo data in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${counts.competitions} competitions, ${counts.players} players, ${counts.memberships} memberships`,
    );
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
    console.log(
      `ratio  workerd CPU per request, /dashboard / static = ${(dashboard.cpuMs / staticAgain.cpuMs).toFixed(2)}, /competitions / static = ${(competitions.cpuMs / staticAgain.cpuMs).toFixed(2)}`,
    );
    await floorLines(proxy.url, stateDir, { static: staticAgain, dashboard });
    const djs = await firstLoadJs(worker.url, "/dashboard", headers);
    console.log(
      `first-load JavaScript for /dashboard: ${djs.files} files, ${(djs.raw / 1024).toFixed(1)} KB raw, ${(djs.gz / 1024).toFixed(1)} KB gzip (target <= 150 KB)`,
    );

    const table = await roundTripTable(worker.url, cookie, databaseUrl, proxy);
    console.log(
      `\nfirst-load JavaScript: /login ${(js.gz / 1024).toFixed(1)} KB gzip (target <= 120 KB), /dashboard ${(djs.gz / 1024).toFixed(1)} KB gzip (target <= 150 KB)`,
    );
    console.log(table);
  } finally {
    await worker.stop();
    await proxy.stop();
    await backend.stop();
  }
}

/**
 * The floor under those figures (decision 023, addendum 3): the same runtime and local Hyperdrive with none of the
 * app (scripts/bench-floor/worker.ts), under the same load. /none is a Worker invocation that does nothing;
 * /connection only opens the request's database connection and sends what every signed-in page sends at least.
 * Printed as multiples of the static file's CPU, measured just before in the web Worker's process tree.
 */
async function floorLines(databaseUrl: string, stateDir: string, measured: { static: Stats; dashboard: Stats }) {
  const floor = await startWorker({
    port: await freePort(),
    databaseUrl,
    stateDir: path.join(stateDir, "floor"),
    quiet: true,
    vars: {},
    config: path.join(ROOT, "scripts/bench-floor/wrangler.toml"),
    readyPath: "/none",
  });
  try {
    const pid = floor.process.pid;
    await load(`${floor.url}/connection`, {}, pid);
    const none = await load(`${floor.url}/none`, {}, pid);
    const connection = await load(`${floor.url}/connection`, {}, pid);
    const x = (s: Stats) => (s.cpuMs / measured.static.cpuMs).toFixed(2);
    console.log(`floor  Worker, no work  ${fmt(none)}  (${x(none)}x static)`);
    console.log(`floor  DB connection   ${fmt(connection)}  (${x(connection)}x static)`);
    console.log(
      `       /dashboard above the database floor: ${(measured.dashboard.cpuMs - connection.cpuMs).toFixed(2)} ms of workerd CPU a request (Remix, the loaders' rows, React)`,
    );
  } finally {
    await floor.stop();
  }
}

interface Sample {
  ms: number;
  roundTrips: number;
  startup: number;
  query: number;
}

interface Target {
  name: string;
  /** Makes one request and checks its answer; `i` numbers the sample (writes alternate their input). */
  send(i: number): Promise<void>;
  /** Undo a write after each sample (outside the timing, straight in the database). */
  after?(i: number): Promise<void>;
}

/** One request at a time: latency, round trips of each request (from the proxy) and workerd CPU per request. */
async function sequential(target: Target, n: number, proxy: LatencyProxy) {
  const samples: Sample[] = [];
  const cpuBefore = treeCpuSeconds(workerPid, "workerd");
  let cpuSeconds = 0;
  for (let i = 0; i < n; i++) {
    proxy.reset();
    const t = performance.now();
    await target.send(i);
    const ms = performance.now() - t;
    const snap = proxy.snapshot();
    samples.push({ ms, roundTrips: snap.roundTrips, startup: snap.startupRoundTrips, query: snap.queryRoundTrips });
    if (target.after) {
      // Keep the undo's CPU out of the Worker's figure (it does not touch workerd, but be exact anyway).
      const c = treeCpuSeconds(workerPid, "workerd");
      await target.after(i);
      cpuSeconds -= treeCpuSeconds(workerPid, "workerd") - c;
    }
  }
  cpuSeconds += treeCpuSeconds(workerPid, "workerd") - cpuBefore;
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  const range = (k: "roundTrips" | "startup" | "query") => {
    const lo = Math.min(...samples.map((s) => s[k]));
    const hi = Math.max(...samples.map((s) => s[k]));
    return lo === hi ? String(lo) : `${lo}-${hi}`;
  };
  return {
    p50: pct(50),
    p95: pct(95),
    cpuMs: (cpuSeconds * 1000) / n,
    rt: range("roundTrips"),
    startup: range("startup"),
    query: range("query"),
  };
}

/**
 * The table printed at the end: every signed-in page and the main writes as the demo player, one request at a
 * time, at RTT 0 and at RTT_MS (the proxy's delay switched at run time, same worker).
 */
async function roundTripTable(base: string, cookie: string, databaseUrl: string, proxy: LatencyProxy): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [me] = await sql<{ id: string }[]>`select id from account.accounts where email = 'player@footycoach.test'`;
    // The demo player's biggest knockout and season competitions (the scaled ones have ~200 members).
    const biggest = (type: string) => sql<{ id: string; current_match_day: number; league: string; season: string }[]>`
      select c.id, c.current_match_day, c.league, c.season from public.competitions c
        join public.user_selections m on m.competition_id = c.id and m.user_id = ${me.id}
       where c.type = ${type} and c.status = 'active'
       order by (select count(*) from public.user_selections x where x.competition_id = c.id) desc, c.name limit 1`;
    const [ko] = await biggest("knockout");
    const [season] = await biggest("season");
    // A public competition open for registration that the demo player is not in (joined, then left again).
    const [open] = await sql<{ id: string }[]>`
      select c.id from public.competitions c
       where c.name like 'Bench %' and c.visibility = 'public' and c.registration_status = 'open' and c.status = 'active'
         and not exists (select 1 from public.user_selections m where m.competition_id = c.id and m.user_id = ${me.id})
       order by c.name limit 1`;
    const teams = (
      await sql<{ home_team: string; away_team: string }[]>`
        select home_team, away_team from public.fixtures where league = ${ko.league} and season = ${ko.season} and match_day = ${ko.current_match_day}
         order by kickoff_time, id limit 1`
    ).flatMap((f) => [f.home_team, f.away_team]);
    if (!ko || !season || !open || teams.length < 2)
      throw new Error("bench data: no knockout, season or open competition for the demo player");

    const headers = { Cookie: cookie, Origin: base };
    const get = (pathname: string): Target => ({
      name: `GET ${pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "{id}")}`,
      async send() {
        const res = await fetch(base + pathname, { headers, redirect: "manual" });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`);
      },
    });
    const post = async (pathname: string, form: Record<string, string>) => {
      const res = await fetch(base + pathname, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
      await res.arrayBuffer();
      if (res.status !== 302) throw new Error(`POST ${pathname} answered ${res.status}`);
      return res.headers.get("location") ?? "";
    };
    const join: Target = {
      name: "POST join a competition",
      async send() {
        await post("/competitions", { intent: "join", competitionId: open.id, redirectTo: "/competitions" });
      },
      async after() {
        const left = await sql`delete from public.user_selections where user_id = ${me.id} and competition_id = ${open.id} returning 1`;
        if (left.length !== 1) throw new Error("the join did not happen");
      },
    };
    const pick: Target = {
      name: "POST save a pick",
      async send(i) {
        const location = await post(`/select-team/${ko.id}`, { intent: "select", team: teams[i % 2] });
        if (location !== `/select-team/${ko.id}`) throw new Error(`save a pick was refused: ${location}`);
      },
    };
    // Scout: the demo's active Scout competition on its current match day. Each redeem gets a fresh referral
    // ticket and its entry is removed afterwards (at most 10 entries a match day); the predictions go to one
    // entry made through the app before the runs.
    const [scout] = await sql<{ id: string; league: string; season: string; current_match_day: number }[]>`
      select id, league, season, current_match_day from public.competitions
       where type = 'scout' and status = 'active' order by created_at limit 1`;
    if (!scout) throw new Error("bench data: no active Scout competition");
    const [scoutFixture] = await sql<{ id: string }[]>`
      select id::text from public.fixtures
       where league = ${scout.league} and season = ${scout.season} and match_day = ${scout.current_match_day}
       order by kickoff_time, id limit 1`;
    const ticket = () => sql`insert into public.tickets (user_id, ticket_type) values (${me.id}, 'referral')`;
    const newestEntry = async () =>
      (
        await sql<{ id: string }[]>`
          select id::text from public.scout_entries where user_id = ${me.id} and competition_id = ${scout.id}
           order by created_at desc, entry_index desc limit 1`
      )[0]?.id;
    await ticket();
    await post("/scout", { intent: "redeem", competitionId: scout.id });
    const predictionEntry = await newestEntry();
    if (!predictionEntry || !scoutFixture) throw new Error("bench data: the Scout entry or fixture is missing");
    const redeem: Target = {
      name: "POST redeem a Scout ticket",
      async send() {
        await ticket();
        const location = await post("/scout", { intent: "redeem", competitionId: scout.id });
        if (!location.startsWith("/scout")) throw new Error(`redeem was refused: ${location}`);
      },
      async after() {
        const made = await newestEntry();
        if (!made || made === predictionEntry) throw new Error("the redeem made no entry");
        await sql`delete from public.scout_entries where id = ${made}`;
      },
    };
    const predict: Target = {
      name: "POST save a Scout prediction",
      async send(i) {
        await post("/scout", {
          intent: "save-predictions",
          competitionId: scout.id,
          entryId: predictionEntry,
          fixture: scoutFixture.id,
          [`home.${scoutFixture.id}`]: String(i % 5),
          [`away.${scoutFixture.id}`]: "1",
        });
      },
    };
    const staticFile: Target = {
      name: "static /favicon.svg",
      async send() {
        const res = await fetch(`${base}/favicon.svg`);
        await res.arrayBuffer();
      },
    };
    const targets: Target[] = [
      staticFile,
      get("/dashboard"),
      get("/competitions"),
      get("/my-competitions"),
      get(`/competition/${ko.id}`),
      get(`/select-team/${ko.id}`),
      get(`/leaderboard/${ko.id}`),
      get(`/season-leaderboard/${season.id}`),
      get("/scout"),
      get("/profile"),
      join,
      pick,
      redeem,
      predict,
    ];

    console.log(`\nsequential requests as the demo player: ${REQUESTS} per target at RTT 0, ${RTT_REQUESTS} at RTT ${RTT_MS} ms...`);
    // warm
    for (const t of targets) {
      for (let i = 0; i < 3; i++) {
        await t.send(i);
        await t.after?.(i);
      }
    }
    proxy.setDelay(0);
    const at0: Awaited<ReturnType<typeof sequential>>[] = [];
    for (const t of targets) at0.push(await sequential(t, REQUESTS, proxy));
    proxy.setDelay(RTT_MS / 2);
    const atRtt: Awaited<ReturnType<typeof sequential>>[] = [];
    try {
      for (const t of targets) atRtt.push(await sequential(t, RTT_REQUESTS, proxy));
    } finally {
      proxy.setDelay(0);
    }

    const staticP50 = atRtt[0].p50;
    const rows = targets.map((t, i) => {
      const a = at0[i];
      const b = atRtt[i];
      const rt = a.rt === b.rt ? a.rt : `${a.rt} / ${b.rt}`;
      const split =
        i === 0
          ? ""
          : a.startup === b.startup && a.query === b.query
            ? `${a.startup} + ${a.query}`
            : `${a.startup} + ${a.query} / ${b.startup} + ${b.query}`;
      return [
        t.name,
        i === 0 ? "0" : rt,
        split,
        a.p50.toFixed(1),
        a.p95.toFixed(1),
        b.p50.toFixed(1),
        b.p95.toFixed(1),
        i === 0 ? "" : ((b.p50 - staticP50) / RTT_MS).toFixed(1),
        a.cpuMs.toFixed(2),
      ];
    });
    const head = [
      "request",
      "DB round trips",
      "start-up + query",
      "p50 @0",
      "p95 @0",
      `p50 @${RTT_MS}`,
      `p95 @${RTT_MS}`,
      `(p50-static)/RTT @${RTT_MS}`,
      "workerd CPU ms",
    ];
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
    const line = (r: string[]) => "| " + r.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join(" | ") + " |";
    return [
      `\nPer request, one at a time, as the demo player (player@footycoach.test) on the scaled demo data. Latencies in ms;`,
      `"@0": no added latency (${REQUESTS} requests), "@${RTT_MS}": the proxy adds ${RTT_MS / 2} ms each way between the local Hyperdrive and`,
      `the database (${RTT_REQUESTS} requests). DB round trips from the proxy (one value when every request gave the same count, "0 / 50"`,
      `when the two runs differ); start-up = the new connection's StartupMessage..ReadyForQuery, which production Hyperdrive`,
      `answers at the edge. (p50-static)/RTT: the page's p50 minus the static file's p50 at RTT ${RTT_MS}, in RTTs. Target: 1 round`,
      `trip per page view, 2 per write. workerd CPU per request from /proc during the @0 run.`,
      "",
      line(head),
      "|" + widths.map((w, c) => (c === 0 ? "-".repeat(w + 1) : "-".repeat(w + 1) + ":")).join("|") + "|",
      ...rows.map(line),
    ].join("\n");
  } finally {
    await sql.end({ timeout: 5 });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
