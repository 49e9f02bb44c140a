/**
 * `npm run bench:rush`: the deadline rush (issue 24, decision 024). Players with sessions (BENCH_PLAYERS, default
 * 2,000) each load the dashboard and Team Selection, make or change a pick and load the page the save redirects to,
 * arriving faster and faster towards a deadline 60 seconds away (arrival density grows with the square of the time:
 * 42% of the players come in the last 10 seconds), against the app as `npm start` serves it (wrangler dev, its local
 * Hyperdrive, scripts/db-relay.ts) on a real PostgreSQL behind PgBouncer (as `npm run bench` sets it up).
 *
 * Runs (BENCH_RUNS, default all, comma-separated): idle (one player at a time: the reference figures), rush, and
 * the rush with a fault in its middle (from second 25): db-stop (PostgreSQL shut down for 10 s, then started),
 * pool-exhausted (every PgBouncer server connection held by a 10 s query; a request waits at most 5 s for one),
 * worker-restart (the Worker's runtime restarts under the running wrangler dev: the bundle's file changes, wrangler
 * starts a new workerd process and its dev proxy holds the port meanwhile, as Cloudflare's edge does through a
 * deploy or an isolate restart), and, not in the default list, wrangler-restart (wrangler dev itself stopped and
 * started on the same port: nothing listens meanwhile, which production has no counterpart of). Each run gets a
 * fresh deadline and the picks of the run before are removed.
 *
 * The deadline is data relative to now (the app's one clock reads the real time, decision 003): before each run
 * the kickoffs of the rush match day move to 60 s + 1 hour from now. Sessions are inserted straight into
 * account.sessions with the app's signed cookie (as tests/e2e/fixtures.ts startSession does), not made by
 * logging in through bcrypt 2,000 times.
 *
 * A player who gets a 503 (or no answer) waits 2 s and tries again, until the deadline; 3% of the players come
 * in the 5 s after the deadline with the page they loaded before it and press Yes: the app must refuse them with
 * the spec's message. At the end of each run, the audit: every acknowledged pick is in the database exactly once
 * with the acknowledged team, no pick was acknowledged or written after the deadline, and every late pick was
 * refused with "Failed to save team selection." (the selection_closed reason).
 *
 * BENCH_PLAYERS (2000), BENCH_RUSH_SECONDS (60), BENCH_RUNS, SKIP_BUILD=1 (use the existing build).
 */
import os from "node:os";
import path from "node:path";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import postgres from "postgres";
import { createCookie } from "@remix-run/cloudflare";
import { ROOT, buildApp, freePort, startWorker, workerVars, type Worker } from "./app-server";
import { startBenchDatabase, treeCpuSeconds, treePids } from "./bench-stack";
import { insertSessions } from "./db/sessions";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 2000);
const RUSH_SECONDS = Number(process.env.BENCH_RUSH_SECONDS ?? 60);
const RUNS = (process.env.BENCH_RUNS ?? "idle,rush,db-stop,pool-exhausted,worker-restart").split(",").map((r) => r.trim());
const FAULT_AT = Math.round(RUSH_SECONDS * 0.42);
const FAULT_SECONDS = 10;
const IDLE_PLAYERS = 40;
const LATE_SHARE = 0.03;
const CHANGE_SHARE = 0.3;
const RETRY_MS = 2000;
const KINDS = ["GET /dashboard", "GET /select-team", "POST pick", "GET /select-team after the pick"] as const;
type Kind = (typeof KINDS)[number];
const FAILED_PICK = "Failed to save team selection.";

interface Sample {
  kind: Kind;
  /** ms since the run's start when sent, and its latency. */
  at: number;
  ms: number;
  /** HTTP status, or 0 for no answer (connection refused or reset). */
  status: number;
}

interface Player {
  id: string;
  cookie: string;
  /** Pick before the run (a change), or null. */
  before: string | null;
  /** The teams to pick in order (a second one for some: a change of mind). */
  picks: string[];
  /** Arrival in ms from the run's start. */
  arrival: number;
  late: boolean;
}

interface Outcome {
  acknowledged: { team: string; at: number }[];
  attempted: string[];
  /** Picks of on-time players the app refused (their reason; most reached the server after the deadline). */
  refused: string[];
  lateRefusedWithMessage: number;
  lateOther: string[];
}

const log = (m: string) => console.log(m);
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (process.env.SKIP_BUILD !== "1") await buildApp(log);
  const backend = await startBenchDatabase({
    restartable: true,
    // A request waits at most 5 s for a pooled connection, then gets an error (a 503 page); a failed server login
    // is retried after 1 s (PgBouncer's default of 15 s would dominate every recovery figure).
    pgbouncer: { queryWaitTimeoutSeconds: 5, serverLoginRetrySeconds: 1 },
  });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-rush-"));
  const vars = workerVars(stateDir, "development");
  flashSecret = vars.SESSION_SECRET;
  const sql = postgres(backend.databaseUrl, { max: 2, onnotice: () => {} });
  let worker: Worker | undefined;
  const port = await freePort();
  /** Workers this script stopped itself (their exit is no news). */
  const stopping = new Set<Worker>();
  // wrangler dev's errors go to a file; its exit is reported (a Worker that dies mid-run shows as "no answer").
  const workerLog = path.join(stateDir, "wrangler-stderr.log");
  const serve = async () => {
    worker = await startWorker({ port, databaseUrl: backend.appUrl, vars: { ...vars, DB_EMBEDDED: "0" }, stateDir, quiet: true });
    const started = performance.now();
    worker.process.stderr?.on("data", (d: Buffer) => appendFileSync(workerLog, d));
    const mine = worker;
    worker.process.once("exit", (code, signal) => {
      if (!stopping.has(mine) && signal !== "SIGTERM")
        log(
          `!!! wrangler dev exited (${code ?? signal}) ${((performance.now() - started) / 1000).toFixed(1)} s after it started; its stderr: ${workerLog}`,
        );
    });
    return worker;
  };
  const restart = async () => {
    if (worker) stopping.add(worker);
    await worker?.stop();
    return serve();
  };
  // The Worker's runtime restarted under the same wrangler dev: a change to the bundle's input makes wrangler rebuild
  // and start a new workerd process (its ids change) while its dev proxy queues the requests that arrive (a GET in
  // flight is retried, a POST in flight answered 503). The built file gets its original text back at the end.
  const bundle = path.join(ROOT, "build/server/index.js");
  const bundleText = readFileSync(bundle, "utf8");
  const restartRuntime = async () => {
    const before = new Set(treePids(worker!.process.pid, "workerd"));
    appendFileSync(bundle, `\n// bench:rush restarts the Worker at ${new Date().toISOString()}\n`);
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      const now = treePids(worker!.process.pid, "workerd");
      const replaced = now.length > 0 && now.filter((pid) => !before.has(pid)).length > 0;
      if (replaced) {
        const res = await fetch(`${worker!.url}/login`, { redirect: "manual" }).catch(() => null);
        if (res && res.status < 500)
          return `workerd ${[...before].filter((p) => !now.includes(p)).join(", ")} -> ${now.filter((p) => !before.has(p)).join(", ")}`;
      }
      await sleep(50);
    }
    throw new Error("the Worker's runtime did not restart within 60 s");
  };
  try {
    const setup = performance.now();
    const { competitionId, league, season, matchDay, teams } = await arrangeRush(sql, PLAYERS + IDLE_PLAYERS);
    const users = await sql<{ id: string }[]>`
      select user_id as id from public.user_selections where competition_id = ${competitionId} order by user_id`;
    const cookies = await insertSessions(
      sql,
      users.map((u) => u.id),
      vars.SESSION_SECRET,
    );
    await serve();
    log(
      `\nFootyCoach deadline rush: ${PLAYERS} players (+${IDLE_PLAYERS} for the idle run) in one knockout competition of ${users.length} members, ` +
        `a deadline ${RUSH_SECONDS} s away, wrangler dev + local Hyperdrive + relay + PgBouncer (transaction pooling, pool ${backend.pooler?.poolSize ?? "none"}) + ${backend.pg.kind}, ` +
        `${os.cpus().length} cores. Set up in ${((performance.now() - setup) / 1000).toFixed(1)} s; sessions inserted straight into account.sessions ` +
        `(signed "<user id>:<token>" cookies, as tests/e2e/fixtures.ts startSession), no bcrypt logins.`,
    );
    const all = users.map((u, i) => ({ id: u.id, cookie: cookies[i] }));
    const idlePlayers = all.slice(0, IDLE_PLAYERS);
    const rushPlayers = all.slice(IDLE_PLAYERS);
    let idle: Map<Kind, number[]> | undefined;
    const summary: string[] = [];

    for (const run of RUNS) {
      if (run === "idle") {
        await moveDeadline(sql, league, season, matchDay, RUSH_SECONDS + 3600);
        await resetPicks(sql, competitionId, matchDay, []);
        const samples: Sample[] = [];
        const t0 = performance.now();
        // Warm the Worker, then one player at a time.
        for (const p of idlePlayers.slice(0, 5))
          await playerFlow(worker!, competitionId, toPlayer(p, teams, 0, false), t0, samples, Infinity);
        samples.length = 0;
        for (const p of idlePlayers) await playerFlow(worker!, competitionId, toPlayer(p, teams, 0, false), t0, samples, Infinity);
        idle = byKind(samples);
        log(`\n== idle: ${idlePlayers.length} players one at a time (the reference figures) ==`);
        log(latencyTable(samples, idle));
        summary.push(`idle    pick p95 ${pct(idle.get("POST pick")!, 95).toFixed(1)} ms`);
        continue;
      }
      if (!["rush", "db-stop", "pool-exhausted", "worker-restart", "wrangler-restart"].includes(run)) throw new Error(`unknown run ${run}`);
      const result = await rush(
        run,
        rushPlayers,
        teams,
        competitionId,
        league,
        season,
        matchDay,
        sql,
        backend,
        restart,
        restartRuntime,
        () => worker!,
      );
      log(`\n== ${run}: ${PLAYERS} players, deadline at +${RUSH_SECONDS} s${run === "rush" ? "" : `, fault from +${FAULT_AT} s`} ==`);
      log(result.report(idle));
      summary.push(result.summary(idle));
    }
    log(`\n== summary (ratios to the idle run's figures; targets: pick p95 <= 4x idle, 0 lost or duplicated, 0 5xx outside faults) ==`);
    for (const line of summary) log(line);
    log(`workerd CPU over the whole benchmark: ${treeCpuSeconds(worker?.process.pid, "workerd").toFixed(1)} s (the last Worker process)`);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
    if (worker) stopping.add(worker);
    await worker?.stop();
    writeFileSync(bundle, bundleText); // the built file as it was (worker-restart appended a line)
    await backend.stop();
  }
}

function toPlayer(p: { id: string; cookie: string }, teams: string[], arrival: number, late: boolean, index = 0): Player {
  const first = teams[index % teams.length];
  const second = teams[(index + 3) % teams.length];
  return {
    ...p,
    before: null,
    picks: index % 10 === 0 && !late ? [first, second] : [first],
    arrival,
    late,
  };
}

/**
 * The rush data: one public knockout competition on the demo league's open match day that every bench player
 * joins (on top of the demo data), with N players made set-based (profiles, memberships).
 */
async function arrangeRush(sql: postgres.Sql, players: number) {
  return sql.begin(async (tx) => {
    const [{ hash }] = await tx<
      { hash: string }[]
    >`select password_hash as hash from account.accounts where email = 'player@footycoach.test'`;
    const [md] = await tx<{ league: string; season: string; match_day: number }[]>`
      select c.league, c.season, c.current_match_day as match_day from public.competitions c
       where c.type = 'knockout' and c.status = 'active' and public.selection_open(c.league, c.season, c.current_match_day)
       order by c.created_at limit 1`;
    if (!md) throw new Error("demo data: no open knockout match day");
    await tx`
      insert into account.accounts (email, password_hash)
      select 'rush' || g || '@footycoach.test', ${hash} from generate_series(1, ${players}) g`;
    await tx`
      insert into public.profiles (id, email, username, date_of_birth, gender, time_zone)
      select a.id, a.email, 'rush_' || split_part(split_part(a.email, '@', 1), 'rush', 2), date '1990-01-01', 'prefer-not-to-say', 'Europe/London'
        from account.accounts a where a.email like 'rush%@footycoach.test'`;
    const [c] = await tx<{ id: string }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                       registration_status, visibility, created_by)
      values ('Deadline Rush', 'knockout', ${md.league}, ${md.season}, current_date, ${md.match_day}, ${md.match_day}, 'open', 'public', null)
      returning id`;
    await tx`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      select p.id, ${c.id}, ${md.league}, ${md.season}, ${md.match_day} from public.profiles p where p.username like 'rush\\_%'`;
    const teams = (
      await tx<{ home_team: string; away_team: string }[]>`
        select home_team, away_team from public.fixtures where league = ${md.league} and season = ${md.season} and match_day = ${md.match_day}
         order by kickoff_time, id`
    ).flatMap((f) => [f.home_team, f.away_team]);
    return { competitionId: c.id, league: md.league, season: md.season, matchDay: md.match_day, teams };
  });
}

/** Moves the match day's kickoffs so that its deadline (first kickoff - 1 hour) is `secondsAhead` from now (+1 h). */
async function moveDeadline(sql: postgres.Sql, league: string, season: string, matchDay: number, secondsFromNow: number): Promise<Date> {
  const [row] = await sql<{ deadline: Date }[]>`
    with first as (select min(kickoff_time) as k from public.fixtures where league = ${league} and season = ${season} and match_day = ${matchDay})
    update public.fixtures f
       set kickoff_time = now() + make_interval(secs => ${secondsFromNow}) + interval '1 hour' + (f.kickoff_time - first.k)
      from first
     where f.league = ${league} and f.season = ${season} and f.match_day = ${matchDay}
    returning (now() + make_interval(secs => ${secondsFromNow})) as deadline`;
  return row.deadline;
}

/** Removes the run before's picks; `before` players get a pick of their own first (so theirs is a change). */
async function resetPicks(sql: postgres.Sql, competitionId: string, matchDay: number, before: { id: string; team: string }[]) {
  await sql`delete from public.team_selections where competition_id = ${competitionId}`;
  if (!before.length) return;
  await sql`
    insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
    select b.user_id, ${competitionId}, ${matchDay}, f.id, b.team, 'home_win'
      from unnest(${before.map((b) => b.id)}::uuid[], ${before.map((b) => b.team)}::text[]) as b (user_id, team)
      join public.competitions c on c.id = ${competitionId}
      cross join lateral (select f.id from public.fixtures f
                           where f.league = c.league and f.season = c.season and f.match_day = ${matchDay}
                             and b.team in (f.home_team, f.away_team) order by f.kickoff_time, f.id limit 1) f`;
}

async function request(
  worker: Worker,
  kind: Kind,
  pathname: string,
  cookie: string,
  t0: number,
  samples: Sample[],
  form?: Record<string, string>,
): Promise<{ status: number; location: string; flash: string | null; body: string; sentAt: number }> {
  const start = performance.now();
  let status = 0;
  let location = "";
  let flash: string | null = null;
  let body = "";
  try {
    const res = await fetch(worker.url + pathname, {
      method: form ? "POST" : "GET",
      headers: form ? { Cookie: cookie, Origin: worker.url, "Content-Type": "application/x-www-form-urlencoded" } : { Cookie: cookie },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    body = await res.text();
    status = res.status;
    location = res.headers.get("location") ?? "";
    flash = res.headers.getSetCookie().find((c) => c.startsWith("fc_flash=")) ?? null;
  } catch (error) {
    status = 0;
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === "TimeoutError" ? "timeout 30 s" : (e.cause?.code ?? e.cause?.message ?? e.message);
    noAnswer.set(why, (noAnswer.get(why) ?? 0) + 1);
  }
  samples.push({ kind, at: start - t0, ms: performance.now() - start, status });
  return { status, location, flash, body, sentAt: start - t0 };
}

/** Why requests got no answer, by cause (connection refused, reset, the driver's 30 s timeout), per run. */
const noAnswer = new Map<string, number>();

const flashCookie = (secret: string) => createCookie("fc_flash", { secrets: [secret] });
let flashSecret = "";

/** One player's visit: dashboard, Team Selection, each pick (Yes), the page after it. Retries on 503 or no answer. */
async function playerFlow(
  worker: Worker,
  competitionId: string,
  player: Player,
  t0: number,
  samples: Sample[],
  deadlineAt: number,
  currentWorker: () => Worker = () => worker,
): Promise<Outcome> {
  const outcome: Outcome = { acknowledged: [], attempted: [], refused: [], lateRefusedWithMessage: 0, lateOther: [] };
  const page = `/select-team/${competitionId}`;
  const until = player.late ? deadlineAt + 10_000 : deadlineAt;
  const withRetry = async (kind: Kind, pathname: string, form?: Record<string, string>) => {
    for (;;) {
      const answer = await request(currentWorker(), kind, pathname, player.cookie, t0, samples, form);
      if ((answer.status !== 503 && answer.status !== 0) || performance.now() - t0 + RETRY_MS >= until) return answer;
      await sleep(RETRY_MS);
    }
  };
  if (!player.late) {
    await withRetry("GET /dashboard", "/dashboard");
    await withRetry("GET /select-team", page);
  }
  for (const team of player.picks) {
    outcome.attempted.push(team);
    const answer = await withRetry("POST pick", page, { intent: "select", team });
    if (answer.status === 302 && answer.location === page) outcome.acknowledged.push({ team, at: answer.sentAt });
    else if (!player.late && answer.status === 302 && answer.location.startsWith(`${page}?error=`))
      outcome.refused.push(`${answer.location.slice(page.length + 7)}${answer.sentAt < deadlineAt ? " (sent before the deadline)" : ""}`);
    if (player.late) {
      const toast: unknown = answer.flash ? await flashCookie(flashSecret).parse(answer.flash.split(";")[0]) : null;
      const message = (toast as { message?: string } | null)?.message;
      if (answer.status === 302 && answer.location === `${page}?error=selection_closed` && message === FAILED_PICK)
        outcome.lateRefusedWithMessage++;
      else outcome.lateOther.push(`${answer.status} ${answer.location} ${message ?? ""}`.trim());
    }
    if (answer.status === 302) await withRetry("GET /select-team after the pick", answer.location);
  }
  return outcome;
}

function byKind(samples: Sample[]): Map<Kind, number[]> {
  const map = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  for (const s of samples) if (s.status >= 200 && s.status < 400) map.get(s.kind)!.push(s.ms);
  for (const list of map.values()) list.sort((a, b) => a - b);
  return map;
}

function latencyTable(samples: Sample[], kinds: Map<Kind, number[]>, idle?: Map<Kind, number[]>): string {
  const lines = [
    `  ${"request".padEnd(32)} ${"n".padStart(6)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)}${idle ? "   p95/idle p95" : ""}`,
  ];
  for (const k of KINDS) {
    const list = kinds.get(k)!;
    const ratio = idle ? `   ${(pct(list, 95) / pct(idle.get(k)!, 95)).toFixed(2)}x` : "";
    lines.push(
      `  ${k.padEnd(32)} ${String(list.length).padStart(6)} ${pct(list, 50).toFixed(1).padStart(8)} ${pct(list, 95).toFixed(1).padStart(8)} ${pct(list, 99).toFixed(1).padStart(8)}${ratio}`,
    );
  }
  const causes = [...noAnswer].map(([k, n]) => `${k}: ${n}`).join(", ");
  noAnswer.clear();
  const bad = new Map<string, number>();
  for (const s of samples)
    if (s.status === 0 || s.status >= 400)
      bad.set(`${s.kind} ${s.status || "no answer"}`, (bad.get(`${s.kind} ${s.status || "no answer"}`) ?? 0) + 1);
  lines.push(
    bad.size
      ? `  answers other than 2xx/3xx (latencies above count 2xx/3xx only): ${[...bad].map(([k, n]) => `${k}: ${n}`).join(", ")}`
      : "  answers other than 2xx/3xx: none",
  );
  if (causes) lines.push(`  no answer, by cause: ${causes}`);
  return lines.join("\n");
}

async function rush(
  run: string,
  rushPlayers: { id: string; cookie: string }[],
  teams: string[],
  competitionId: string,
  league: string,
  season: string,
  matchDay: number,
  sql: postgres.Sql,
  backend: Awaited<ReturnType<typeof startBenchDatabase>>,
  restart: () => Promise<Worker>,
  restartRuntime: () => Promise<string>,
  currentWorker: () => Worker,
) {
  // Who comes when: arrival times with density growing as t^2 towards the deadline; the late ones after it.
  const players: Player[] = rushPlayers.map((p, i) => {
    const late = i % Math.round(1 / LATE_SHARE) === 7;
    const u = (i * 0.6180339887) % 1;
    const arrival = late ? RUSH_SECONDS * 1000 + 200 + u * 4000 : RUSH_SECONDS * 1000 * Math.cbrt(u) * 0.995;
    return toPlayer(p, teams, arrival, late, i);
  });
  const before = players
    .filter((_, i) => i % Math.round(1 / CHANGE_SHARE) === 1)
    .map((p) => ({ id: p.id, team: teams[(teams.length - 1) % teams.length] }));
  for (const p of players) if (before.some((b) => b.id === p.id)) p.before = teams[(teams.length - 1) % teams.length];
  await resetPicks(sql, competitionId, matchDay, before);
  // The late players' Team Selection page was loaded before the deadline (a page left open): they only press Yes.
  const deadline = await moveDeadline(sql, league, season, matchDay, RUSH_SECONDS);
  const t0 = performance.now() - (Date.now() - (deadline.getTime() - RUSH_SECONDS * 1000));
  const deadlineAt = RUSH_SECONDS * 1000;
  const samples: Sample[] = [];
  const faults: { start: number; lifted: number; what: string }[] = [];
  const cpuBefore = treeCpuSeconds(currentWorker().process.pid, "workerd");
  const postmaster = await postmasterPid(sql);
  const pgCpuBefore = treeCpuSeconds(postmaster, "postgres");

  const injector = (async () => {
    if (run === "rush") return;
    await sleep(Math.max(0, FAULT_AT * 1000 - (performance.now() - t0)));
    const start = performance.now() - t0;
    if (run === "db-stop") {
      await backend.pg.halt!();
      await sleep(FAULT_SECONDS * 1000);
      await backend.pg.resume!();
      faults.push({
        start,
        lifted: performance.now() - t0,
        what: `PostgreSQL shut down (pg_ctl stop -m fast) for ${FAULT_SECONDS} s, then started`,
      });
    } else if (run === "pool-exhausted") {
      const holders = Array.from({ length: backend.pooler?.poolSize ?? 8 }, () =>
        postgres(backend.appUrl, { max: 1, prepare: false, onnotice: () => {} }),
      );
      await Promise.all(holders.map((h) => h`select pg_sleep(${FAULT_SECONDS})`.catch(() => {})));
      await Promise.all(holders.map((h) => h.end({ timeout: 1 })));
      faults.push({
        start,
        lifted: performance.now() - t0,
        what: `every PgBouncer server connection (${backend.pooler?.poolSize}) held by a ${FAULT_SECONDS} s query`,
      });
    } else if (run === "worker-restart") {
      const replaced = await restartRuntime();
      faults.push({
        start,
        lifted: performance.now() - t0,
        what: `the Worker's runtime restarted under wrangler dev (${replaced}), its dev proxy holding the port`,
      });
    } else if (run === "wrangler-restart") {
      await restart();
      faults.push({
        start,
        lifted: performance.now() - t0,
        what: "wrangler dev stopped (SIGTERM to its process group) and started again on the same port",
      });
    }
  })();

  // The database side, sampled every 250 ms: backends waiting for a lock, running, and idle inside a transaction
  // (a transaction waiting for the Worker's next statement, its COMMIT: locks it took are held meanwhile).
  const waits = { samples: 0, lock: 0, lockMax: 0, active: 0, idleInTx: 0, idleInTxMax: 0 };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        const [r] = await sql<{ lock: number; active: number; idle_in_tx: number }[]>`
          select count(*) filter (where wait_event_type = 'Lock')::int as lock,
                 count(*) filter (where state = 'active')::int as active,
                 count(*) filter (where state = 'idle in transaction')::int as idle_in_tx
            from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
        waits.samples++;
        waits.lock += r.lock;
        waits.lockMax = Math.max(waits.lockMax, r.lock);
        waits.active += r.active;
        waits.idleInTx += r.idle_in_tx;
        waits.idleInTxMax = Math.max(waits.idleInTxMax, r.idle_in_tx);
      } catch {
        // the database is down (a fault): no sample
      }
      await sleep(250);
    }
  })();

  const outcomes = await Promise.all(
    players.map(async (p) => {
      await sleep(Math.max(0, p.arrival - (performance.now() - t0)));
      return { player: p, outcome: await playerFlow(currentWorker(), competitionId, p, t0, samples, deadlineAt, currentWorker) };
    }),
  );
  await injector;
  sampling = false;
  await sampler;
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(currentWorker().process.pid, "workerd") - cpuBefore;
  // After a database restart the postmaster is a new process: PostgreSQL CPU only for runs without one.
  const pgCpu = run === "db-stop" ? NaN : treeCpuSeconds(postmaster, "postgres") - pgCpuBefore;

  // The audit.
  const rows = await sql<{ user_id: string; team: string; n: number; late: boolean }[]>`
    select user_id, min(selected_team) as team, count(*)::int as n, bool_or(updated_at >= ${deadline} or created_at >= ${deadline}) as late
      from public.team_selections where competition_id = ${competitionId} and match_day = ${matchDay} group by user_id`;
  const inDb = new Map(rows.map((r) => [r.user_id, r]));
  let acknowledged = 0;
  let lost = 0;
  let wrongTeam = 0;
  let duplicated = 0;
  let ackAfterDeadline = 0;
  let unacknowledgedButSaved = 0;
  let lateRefused = 0;
  const lateOther: string[] = [];
  for (const { player, outcome } of outcomes) {
    const row = inDb.get(player.id);
    if (row && row.n !== 1) duplicated++;
    lateRefused += outcome.lateRefusedWithMessage;
    lateOther.push(...outcome.lateOther);
    acknowledged += outcome.acknowledged.length;
    // Sent after the deadline, yet acknowledged (the database must also hold no row written at or after it).
    ackAfterDeadline += outcome.acknowledged.filter((a) => a.at >= deadlineAt).length;
    const last = outcome.acknowledged.at(-1);
    if (last) {
      const lastAttempt = outcome.attempted.at(-1);
      if (!row) lost++;
      else if (row.team !== last.team && !(lastAttempt && row.team === lastAttempt)) wrongTeam++;
    } else if (row && row.team !== player.before) unacknowledgedButSaved++;
  }
  const lateRows = rows.filter((r) => r.late).length;
  const refusals = new Map<string, number>();
  for (const { outcome } of outcomes) for (const r of outcome.refused) refusals.set(r, (refusals.get(r) ?? 0) + 1);
  const lates = players.filter((p) => p.late).length;
  const picksAcked = outcomes.flatMap((o) => o.outcome.acknowledged.map((a) => a.at));
  const perSecond = new Map<number, number>();
  for (const at of picksAcked) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const peak = Math.max(0, ...perSecond.values());
  const kinds = byKind(samples);
  const fault = faults[0];
  const recovery = fault ? recoveryFigures(samples, fault) : null;
  const fiveXX = samples.filter((s) => s.status >= 500);
  const fiveXXOutside = fault ? fiveXX.filter((s) => s.at + s.ms < fault.start || s.at > fault.lifted + 30_000).length : fiveXX.length;
  const fiveHundreds = fiveXX.filter((s) => s.status === 500).length;

  return {
    report(idle?: Map<Kind, number[]>) {
      return [
        `  ${samples.length} requests in ${elapsed.toFixed(1)} s; ${acknowledged} picks acknowledged: ${(acknowledged / RUSH_SECONDS).toFixed(1)} picks/s on average over the ${RUSH_SECONDS} s, ${peak} in the busiest second; ` +
          `CPU: workerd ${cpu.toFixed(1)} s (${((cpu * 1000) / samples.length).toFixed(1)} ms a request), PostgreSQL ${pgCpu.toFixed(1)} s (${((pgCpu * 1000) / samples.length).toFixed(1)} ms a request)`,
        latencyTable(samples, kinds, idle),
        `  database, sampled every 250 ms: backends waiting for a lock avg ${(waits.lock / Math.max(1, waits.samples)).toFixed(1)} (max ${waits.lockMax}), ` +
          `running avg ${(waits.active / Math.max(1, waits.samples)).toFixed(1)}, idle in a transaction avg ${(waits.idleInTx / Math.max(1, waits.samples)).toFixed(1)} (max ${waits.idleInTxMax})`,
        fault ? `  fault: ${fault.what}, from +${(fault.start / 1000).toFixed(1)} s to +${(fault.lifted / 1000).toFixed(1)} s` : "",
        recovery
          ? `  recovery: first answer below 500 to a database page after the fault was lifted +${recovery.firstOk} s; last 5xx or no answer +${recovery.lastBad} s after it (${recovery.during} failed answers during the fault: ${recovery.statuses}); 500s: ${fiveHundreds}`
          : "",
        `  audit: ${acknowledged} acknowledged picks; ${lost} lost, ${duplicated} duplicated, ${wrongTeam} with another team than acknowledged; ` +
          `${ackAfterDeadline} acknowledged after the deadline, ${lateRows} rows written at or after it; ${unacknowledgedButSaved} saved without an answer (the answer was lost, the player saw 503 or nothing); ` +
          `late picks: ${lateRefused} of ${lates} refused with "${FAILED_PICK}" (selection_closed)${lateOther.length ? `, others: ${[...new Set(lateOther)].slice(0, 5).join(" | ")}` : ""}; ` +
          `5xx outside the fault: ${fiveXXOutside}` +
          `\n  on-time players' picks refused: ${[...refusals].map(([k, n]) => `${k}: ${n}`).join(", ") || "none"}`,
      ]
        .filter(Boolean)
        .join("\n");
    },
    summary(idle?: Map<Kind, number[]>) {
      const p95 = pct(kinds.get("POST pick")!, 95);
      const ratio = idle ? p95 / pct(idle.get("POST pick")!, 95) : NaN;
      return (
        `${run.padEnd(15)} pick p95 ${p95.toFixed(1)} ms (${ratio.toFixed(2)}x idle), ${acknowledged} acknowledged, ${(acknowledged / RUSH_SECONDS).toFixed(1)} picks/s (peak ${peak}/s), ` +
        `lost ${lost}, duplicated ${duplicated}, after the deadline ${ackAfterDeadline + lateRows}, late refused ${lateRefused}/${lates}, 5xx outside the fault ${fiveXXOutside}, 500s ${fiveHundreds}` +
        (recovery ? `, recovery +${recovery.firstOk} s (last failure +${recovery.lastBad} s)` : "")
      );
    },
  };
}

/** The PostgreSQL server's main process (its backends are its children), from its data directory's postmaster.pid. */
async function postmasterPid(sql: postgres.Sql): Promise<number | undefined> {
  try {
    const [{ dir }] = await sql<{ dir: string }[]>`select current_setting('data_directory') as dir`;
    return Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
}

function recoveryFigures(samples: Sample[], fault: { start: number; lifted: number }) {
  const db = samples.filter((s) => s.at >= fault.lifted);
  const ok = db.filter((s) => s.status > 0 && s.status < 500).sort((a, b) => a.at + a.ms - (b.at + b.ms))[0];
  const bad = samples.filter((s) => s.status === 0 || s.status >= 500);
  const lastBad = bad.reduce((m, s) => Math.max(m, s.at + s.ms), fault.lifted);
  const during = bad.filter((s) => s.at + s.ms >= fault.start);
  const statuses = new Map<string, number>();
  for (const s of during)
    statuses.set(s.status ? String(s.status) : "no answer", (statuses.get(s.status ? String(s.status) : "no answer") ?? 0) + 1);
  return {
    firstOk: ok ? ((ok.at + ok.ms - fault.lifted) / 1000).toFixed(1) : "never",
    lastBad: ((lastBad - fault.lifted) / 1000).toFixed(1),
    during: during.length,
    statuses: [...statuses].map(([k, n]) => `${k}: ${n}`).join(", ") || "none",
  };
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
