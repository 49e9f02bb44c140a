/**
 * `npm run bench:live`: the live match day's sockets (decision 022) under wrangler dev. BENCH_CLIENTS players
 * (default 5,000) each open a WebSocket through the web Worker's GET /live to ONE match day's LiveMatchDay object;
 * then BENCH_CHANGES live scores (default 10) are saved through the admin's Results action, the app's own path (the
 * action commits, then tells the object through waitUntil), and BENCH_FEED_CHANGES (default 3) arrive from the
 * data feed through the scheduler Worker's LIVE binding (its own wrangler dev, the same dev registry as npm start).
 *
 * It prints, per path: the time from the score saved to the last client's update (p50, p95 over the changes; "saved"
 * = the admin's POST sent, or the feed tick started: both include the write itself, whose own duration is printed
 * beside; for the admin also from the POST's answer, which comes after its COMMIT), the messages per second the
 * object delivered (clients / (last - first delivery) per change), every message lost (a client that did not get a
 * change's sequence number within 60 s), the connect phase (how many of BENCH_CLIENTS connected, how fast, each
 * socket given 30 s for its hello), and per process (wrangler's Node, its dev proxy workerd, the Worker's workerd,
 * the benchmark itself) the RSS, open file descriptors and CPU time before and after connecting, and per socket.
 *
 * Where the sockets connect (BENCH_VIA): wrangler dev's public port, through its dev proxy, as a browser on npm
 * start does; or "direct", the Worker's own workerd, still served by the same wrangler dev. The dev proxy holds 6
 * file descriptors per WebSocket, so under `ulimit -n` 20,000 it cannot hold more than about 3,300 (decision 022):
 * by default the sockets take the proxy when it can hold them, else go direct (the output says which).
 *
 * Players and sessions are made straight in the database (account.sessions, as tests/e2e/fixtures.ts's
 * startSession), never by logging in 5,000 times. The database is a throwaway PostgreSQL server (tests/support/pg.ts:
 * Debian's binaries where present, PGlite otherwise), migrated and seeded as npm start does.
 *
 * BENCH_CLIENTS, BENCH_CHANGES, BENCH_FEED_CHANGES, BENCH_CONNECT_CONCURRENCY (default 50), BENCH_VIA (proxy |
 * direct), BENCH_CONTROL (upgrades with an unknown session first: what a connect costs without a socket), SKIP_BUILD=1.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCookie } from "@remix-run/cloudflare";
import postgres from "postgres";
import WebSocket from "ws";
import { buildApp, freePort, prepareDatabase, startSchedulerWorker, startWorker, workerVars, type Worker } from "./app-server";
import { descendantOf, readProcesses, type ProcessStat } from "./bench-stack";
import { startFootballDataServer } from "./feed/football-data-server";
import { buildSeason, type V4MatchData } from "./feed/v4-matches";
import { createTestDatabase, startPostgres } from "../tests/support/pg";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 5000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
const FEED_CHANGES = Number(process.env.BENCH_FEED_CHANGES ?? 3);
const CONNECT_CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY ?? 50);
/** Open files a process may have here (ulimit -n; Linux /proc), NaN elsewhere. wrangler dev's processes inherit it. */
function openFileLimit(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}
/** File descriptors wrangler dev's dev proxy workerd holds per WebSocket it proxies (measured: 6; see decision 022). */
const PROXY_FDS_PER_SOCKET = 6;
/**
 * Where the sockets connect. "proxy": wrangler dev's public port, through its dev proxy workerd, as a browser on
 * `npm start` does. "direct": the Worker's own workerd (the same wrangler dev, the same Worker and object), without
 * the dev proxy, which has no counterpart in production. Default: the proxy when it can hold BENCH_CLIENTS sockets
 * within the open-file limit, else direct (said so in the output).
 */
const VIA_ASKED = process.env.BENCH_VIA;
const PROXY_CEILING = Math.floor((openFileLimit() - 100) / PROXY_FDS_PER_SOCKET);
const VIA: "proxy" | "direct" =
  VIA_ASKED === "direct" || VIA_ASKED === "proxy"
    ? VIA_ASKED
    : CLIENTS <= PROXY_CEILING || Number.isNaN(PROXY_CEILING)
      ? "proxy"
      : "direct";
/** Before the sockets: this many upgrades with a well-signed cookie whose session does not exist (each one's session
 * checked in the database, then answered 401, no socket): what the same requests cost without a socket. */
const CONTROL = Number(process.env.BENCH_CONTROL ?? 0);
/** A socket whose hello has not arrived within this long counts as not connected. */
const CONNECT_TIMEOUT_MS = 30_000;
/** A change that has not reached every client within this long counts its missing clients as lost. */
const DELIVERY_TIMEOUT_MS = 60_000;

const LEAGUE = "Ligue 1";
const SEASON = "2026/27";
const CODE = "FL1";
const SEASON_YEAR = 2026;
const MATCH_DAY = 1;
const TOKEN = "benchlivetoken";

const log = (m: string) => console.log(`[bench:live] ${m}`);

/** One process of the app as /proc shows it (Linux): its role, RSS, open file descriptors and CPU time. */
interface Proc {
  pid: number;
  role: string;
  mib: number;
  fds: number;
  cpuS: number;
}

/** Ports a process listens on (TCP, IPv4 and IPv6), from its sockets' inodes and /proc/net/tcp*. */
function listeningPorts(pid: number): number[] {
  try {
    const inodes = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
          return m ? [m[1]] : [];
        } catch {
          return [];
        }
      }),
    );
    return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((f) => f.length > 9 && f[3] === "0A" && inodes.has(f[9]))
        .map((f) => parseInt(f[1].split(":")[1], 16)),
    );
  } catch {
    return [];
  }
}

/**
 * The processes under a wrangler dev process (Linux /proc; empty elsewhere): wrangler itself (Node: the CLI, the
 * local Hyperdrive's TCP proxy), its dev proxy workerd (listens on the public port: every request and every
 * WebSocket passes through it) and the Worker's own workerd (the Worker and its Durable Objects); and this
 * benchmark's own process (the clients, the database relay).
 */
function processes(rootPid: number | undefined, publicPort: number): Proc[] {
  if (rootPid === undefined) return [];
  try {
    const procs = readProcesses();
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const under = descendantOf(procs, rootPid);
    const describe = (p: ProcessStat, role: string): Proc => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"));
      let fds = NaN;
      try {
        fds = readdirSync(`/proc/${p.pid}/fd`).length;
      } catch {
        // gone
      }
      return { pid: p.pid, role, mib: m ? Number(m[1]) / 1024 : NaN, fds, cpuS: p.cpu };
    };
    const own = byPid.get(process.pid);
    return [
      ...procs
        .filter((p) => (p.comm === "workerd" || p.comm.startsWith("node")) && under(p.pid))
        .sort((a, b) => a.pid - b.pid)
        .map((p) =>
          describe(
            p,
            p.comm !== "workerd" ? "wrangler (node)" : listeningPorts(p.pid).includes(publicPort) ? "dev proxy workerd" : "Worker workerd",
          ),
        ),
      ...(own ? [describe(own, "bench (node)")] : []),
    ];
  } catch {
    return [];
  }
}

const procText = (r: Proc[]) =>
  r.length ? r.map((p) => `${p.role} ${p.pid}: ${p.mib.toFixed(0)} MiB, ${p.fds} fds, cpu ${p.cpuS.toFixed(1)} s`).join("; ") : "n/a";

/** Per socket, each process's growth between two samples (KiB of RSS, fds). */
function perSocket(before: Proc[], after: Proc[], sockets: number): string {
  return after
    .map((a) => {
      const b = before.find((x) => x.pid === a.pid);
      if (!b || sockets === 0) return `${a.role}: n/a`;
      return `${a.role} ${(((a.mib - b.mib) * 1024) / sockets).toFixed(1)} KiB, ${((a.fds - b.fds) / sockets).toFixed(2)} fds, ${(((a.cpuS - b.cpuS) * 1000) / sockets).toFixed(1)} ms cpu`;
    })
    .join("; ");
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n: number) => `${n.toFixed(0)} ms`;

interface Delivery {
  count: number;
  first: number;
  last: number;
}

/** Every client's messages, by sequence number: how many clients got it, first and last arrival. */
class Clients {
  sockets: WebSocket[] = [];
  deliveries = new Map<number, Delivery>();
  errors = new Map<string, number>();
  closedEarly = 0;
  stopping = false;

  error(kind: string) {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  open(url: string, cookie: string, origin: string): Promise<boolean> {
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { headers: { Cookie: cookie, Origin: origin }, perMessageDeflate: false });
      let settled = false;
      const done = (ok: boolean) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(ok);
        }
      };
      // A socket whose hello has not come within the limit counts as not connected (and is dropped).
      const timer = setTimeout(() => {
        if (settled) return;
        this.error(`no hello within ${CONNECT_TIMEOUT_MS / 1000} s`);
        done(false);
        ws.terminate();
      }, CONNECT_TIMEOUT_MS);
      ws.on("unexpected-response", (_req, res) => {
        this.error(`upgrade answered ${res.statusCode}`);
        res.resume();
        done(false);
      });
      ws.on("error", (e) => {
        this.error(`socket error: ${e.message.slice(0, 80)}`);
        done(false);
      });
      ws.on("close", () => {
        if (!this.stopping && settled) this.closedEarly++;
        done(false);
      });
      ws.on("message", (data) => {
        const now = performance.now();
        const text = Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
        if (text === "pong") return;
        const m = JSON.parse(text) as { seq: number; kind: string };
        if (m.kind === "hello") {
          this.sockets.push(ws);
          done(true);
          return;
        }
        if (m.kind !== "changed") return;
        const d = this.deliveries.get(m.seq);
        if (d) {
          d.count++;
          d.last = now;
        } else this.deliveries.set(m.seq, { count: 1, first: now, last: now });
      });
    });
  }

  /** Resolves when `seq` reached every connected client (or the timeout passed). */
  async waitFor(seq: number): Promise<Delivery | null> {
    const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
    while (performance.now() < deadline) {
      const d = this.deliveries.get(seq);
      if (d && d.count >= this.sockets.length) return d;
      await new Promise((r) => setTimeout(r, 2));
    }
    return this.deliveries.get(seq) ?? null;
  }

  close() {
    this.stopping = true;
    for (const ws of this.sockets) ws.terminate();
  }
}

interface Measured {
  /** From the write's start to the last client's update. */
  toLast: number[];
  /** From the write's start to the first client's update. */
  toFirst: number[];
  /** From the write's answer (the admin's POST: after its COMMIT) to the last client's update; negative when the
   * last update came first (the notify runs in waitUntil, beside the answer). */
  answeredToLast: number[];
  /** The write itself (the admin's POST answered, the feed tick finished). */
  write: number[];
  /** Messages per second of each change's fan-out: clients / (last - first). */
  rate: number[];
  lost: number;
}

function report(title: string, m: Measured, clients: number) {
  if (m.toLast.length === 0) return log(`${title}: no change measured`);
  const s = (a: number[]) => [...a].sort((x, y) => x - y);
  const last = s(m.toLast);
  const first = s(m.toFirst);
  const answered = s(m.answeredToLast);
  const write = s(m.write);
  const rate = s(m.rate);
  log(
    `${title} (${m.toLast.length} changes, ${clients} clients):\n` +
      `    saved -> last client's update   p50 ${ms(pct(last, 50))}   p95 ${ms(pct(last, 95))}   max ${ms(last[last.length - 1])}\n` +
      `    saved -> first client's update  p50 ${ms(pct(first, 50))}   p95 ${ms(pct(first, 95))}\n` +
      `    answered -> last client's update p50 ${ms(pct(answered, 50))}   p95 ${ms(pct(answered, 95))}\n` +
      `    the write itself                p50 ${ms(pct(write, 50))}   p95 ${ms(pct(write, 95))}\n` +
      `    fan-out rate (messages/s)        p50 ${pct(rate, 50).toFixed(0)}   min ${rate[0].toFixed(0)}\n` +
      `    messages lost (not delivered within ${DELIVERY_TIMEOUT_MS / 1000} s): ${m.lost}`,
  );
}

/** The Worker workerd's entry (the port wrangler dev's dev proxy forwards to): the one of its listening ports that
 * answers GET /login as the app. */
async function workerEntry(procs: Proc[]): Promise<string> {
  const worker = procs.find((p) => p.role === "Worker workerd");
  if (!worker) throw new Error("BENCH_VIA=direct: no Worker workerd found under wrangler dev");
  for (const port of listeningPorts(worker.pid)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/login`, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      const body = await res.text();
      if (res.status === 200 && body.includes("FootyCoach")) return `http://127.0.0.1:${port}`;
    } catch {
      // not an HTTP port (the debug port)
    }
  }
  throw new Error(`BENCH_VIA=direct: none of the Worker workerd's ports answers /login`);
}

async function main() {
  if (process.env.SKIP_BUILD !== "1") await buildApp(log);
  const pg = await startPostgres();
  const databaseUrl = await createTestDatabase(pg.url);
  await prepareDatabase(databaseUrl, { seed: true, log });
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-bench-live-"));
  const registryDir = path.join(stateDir, "dev-registry");
  const vars = workerVars(stateDir, "test");
  const feed = await startFootballDataServer({ token: TOKEN, limitPerMinute: 10_000 });
  let web: Worker | undefined;
  let scheduler: Worker | undefined;
  const clients = new Clients();
  try {
    // The match day: two matches kicked off half an hour ago (the feed's), both in play.
    const kickoff = new Date(Date.now() - 30 * 60_000);
    const matches: V4MatchData[] = buildSeason({
      teams: ["Bench North", "Bench South", "Bench East", "Bench West"],
      firstMatchId: 7_700_000,
      firstTeamId: 77_000,
      firstKickoff: kickoff,
    }).map((m) => (m.matchday === MATCH_DAY ? { ...m, utcDate: kickoff.toISOString().replace(/\.\d{3}Z$/, "Z") } : m));
    feed.setMatches(CODE, SEASON_YEAR, matches);
    await sql`insert into public.feed_leagues (league, season, code, season_year, linked, linked_at, sync_requested_at)
              values (${LEAGUE}, ${SEASON}, ${CODE}, ${SEASON_YEAR}, true, now(), now())`;

    web = await startWorker({ port: await freePort(), databaseUrl, stateDir, registryDir, quiet: true, vars });
    // wrangler dev's own messages (quiet: errors only), kept to explain a Worker that stops answering
    let webErrors = "";
    web.process.stderr?.on("data", (d: Buffer) => (webErrors = (webErrors + d.toString()).slice(-3000)));
    web.process.once("exit", (code) => log(`the web Worker's wrangler dev exited (${code}); its last messages:\n${webErrors}`));
    scheduler = await startSchedulerWorker({
      port: await freePort(),
      databaseUrl,
      stateDir: path.join(stateDir, "scheduler"),
      registryDir,
      quiet: true,
      vars: {
        ENVIRONMENT: "development",
        PUSH_PROVIDER: "outbox",
        APP_URL: web.url,
        FOOTBALL_DATA_URL: feed.url,
        FOOTBALL_DATA_TOKEN: TOKEN,
      },
    });
    let tickAt = Date.now();
    const feedTick = async () => {
      tickAt += 60_000; // the feed asks a league at most once in 50 s
      await sql`update public.feed_leagues set sync_requested_at = ${new Date(tickAt - 1000)} where league = ${LEAGUE} and season = ${SEASON}`;
      const res = await fetch(`${scheduler!.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${tickAt}`);
      if (!res.ok) throw new Error(`feed tick answered ${res.status}: ${await res.text()}`);
    };
    await feedTick(); // the import
    const ids = await sql<{ id: string; feed_match_id: string }[]>`
      select id::text, feed_match_id::text from public.fixtures
       where league = ${LEAGUE} and season = ${SEASON} and match_day = ${MATCH_DAY} order by kickoff_time, id`;
    if (ids.length < 2) throw new Error(`the feed's import made ${ids.length} fixtures of match day ${MATCH_DAY}`);
    const [adminFixture, feedFixture] = ids;

    // Players and their sessions, straight in the database.
    const t0 = performance.now();
    const players = await sql<{ id: string }[]>`
      with a as (
        insert into account.accounts (email, password_hash, confirmed_at)
        select 'live' || i || '@bench.test', 'x', now() from generate_series(1, ${CLIENTS}::int) as i
        returning id, email)
      insert into public.profiles (id, username, date_of_birth, gender)
      select a.id, 'live_' || split_part(a.email, '@', 1), date '1990-01-01', 'prefer-not-to-say' from a
      returning id`;
    const cookieJar = createCookie("fc_session", { path: "/", httpOnly: true, sameSite: "lax", secrets: [vars.SESSION_SECRET] });
    const sessionOf = async (userId: string) => {
      const token = randomBytes(32).toString("base64url");
      return {
        userId,
        hash: createHash("sha256").update(token).digest("hex"),
        cookie: (await cookieJar.serialize(`${userId}:${token}`)).split(";")[0],
      };
    };
    const sessions = await Promise.all(players.map((p) => sessionOf(p.id)));
    const [admin] = await sql<{ id: string }[]>`select id from account.accounts where email = 'admin@footycoach.test'`;
    const adminSession = await sessionOf(admin.id);
    const all = [...sessions, adminSession];
    await sql`insert into account.sessions (id, user_id, expires_at)
              select * from unnest(${all.map((s) => s.hash)}::text[], ${all.map((s) => s.userId)}::uuid[],
                                   array_fill(now() + interval '1 day', array[${all.length}::int]))`;
    log(`${CLIENTS} players and sessions made in ${ms(performance.now() - t0)}`);

    const webPort = Number(new URL(web.url).port);
    const procs = () => processes(web!.process.pid, webPort);
    const query = new URLSearchParams({ league: LEAGUE, season: SEASON, md: String(MATCH_DAY) });
    const base = VIA === "direct" ? await workerEntry(procs()) : web.url;
    const wsUrl = `${base.replace(/^http/, "ws")}/live?${query}`;
    log(
      `sockets connect to ${wsUrl} (${VIA === "direct" ? "the Worker's workerd, no dev proxy" : "wrangler dev's public port, through its dev proxy"})`,
    );
    if (!Number.isNaN(PROXY_CEILING) && CLIENTS > PROXY_CEILING) {
      log(
        `  the dev proxy holds ${PROXY_FDS_PER_SOCKET} file descriptors per socket and may open ${openFileLimit()} (ulimit -n): ` +
          `at most about ${PROXY_CEILING} sockets through it` +
          (VIA === "proxy"
            ? "; BENCH_VIA=proxy asked, so expect it to stop there"
            : `; ${CLIENTS} asked, so they go straight to the Worker's workerd`),
      );
    }
    if (CONTROL > 0) {
      const fakes = await Promise.all(Array.from({ length: CONTROL }, () => sessionOf(sessions[0].userId)));
      const c0 = procs();
      const tc0 = performance.now();
      let k = 0;
      await Promise.all(
        Array.from({ length: CONNECT_CONCURRENCY }, async () => {
          while (k < fakes.length) await clients.open(wsUrl, fakes[k++].cookie, base);
        }),
      );
      const c1 = procs();
      log(
        `control: ${CONTROL} upgrades with an unknown session (checked, answered 401, no socket) in ${ms(performance.now() - tc0)}; ` +
          `errors ${[...clients.errors.entries()].map(([e, n]) => `${e} x${n}`).join("; ")}; per request: ${perSocket(c0, c1, CONTROL)}`,
      );
      clients.errors.clear();
    }
    const before = procs();
    log(`before connecting: ${procText(before)}`);
    const tc = performance.now();
    let next = 0;
    let lap = tc;
    let lapAt = 0;
    let tried = 0;
    const upgrades: number[] = [];
    const every = Math.max(100, Math.min(1000, Math.round(CLIENTS / 5 / 100) * 100));
    await Promise.all(
      Array.from({ length: CONNECT_CONCURRENCY }, async () => {
        while (next < sessions.length) {
          const i = next++;
          const t = performance.now();
          if (await clients.open(wsUrl, sessions[i].cookie, base)) upgrades.push(performance.now() - t);
          tried++;
          if (tried % every === 0) {
            const now = performance.now();
            log(
              `  ${tried} tried, ${clients.sockets.length} open: last ${tried - lapAt} at ${((tried - lapAt) / ((now - lap) / 1000)).toFixed(0)}/s; ${procText(procs())}`,
            );
            lap = now;
            lapAt = tried;
          }
        }
      }),
    );
    const connectMs = performance.now() - tc;
    await new Promise((r) => setTimeout(r, 2000)); // let workerd settle before reading its memory
    const connected = procs();
    upgrades.sort((a, b) => a - b);
    log(
      `connected ${clients.sockets.length} of ${CLIENTS} sockets in ${ms(connectMs)} (${((clients.sockets.length / connectMs) * 1000).toFixed(0)}/s, ` +
        `${CONNECT_CONCURRENCY} at a time, each through GET /live's session check; upgrade to hello p50 ${ms(pct(upgrades, 50) ?? NaN)}, p95 ${ms(pct(upgrades, 95) ?? NaN)})`,
    );
    log(`connected: ${procText(connected)}`);
    log(`per socket: ${perSocket(before, connected, clients.sockets.length)}`);

    // The admin's path: the Results page's live-score form, as the browser posts it.
    const admin_: Measured = { toLast: [], toFirst: [], answeredToLast: [], write: [], rate: [], lost: 0 };
    let expected = Math.max(0, ...clients.deliveries.keys());
    const measure = async (write: () => Promise<void>, into: Measured) => {
      const known = new Set(clients.deliveries.keys());
      const start = performance.now();
      await write();
      const wrote = performance.now() - start;
      // the next sequence number the object sends (the import's notify happened before the sockets connected)
      const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
      let seq: number | undefined;
      while (seq === undefined && performance.now() < deadline) {
        seq = [...clients.deliveries.keys()].find((k) => !known.has(k));
        if (seq === undefined) await new Promise((r) => setTimeout(r, 2));
      }
      if (seq === undefined) {
        into.lost += clients.sockets.length;
        return;
      }
      expected = seq;
      const d = await clients.waitFor(seq);
      if (!d) return;
      into.toLast.push(d.last - start);
      into.toFirst.push(d.first - start);
      into.answeredToLast.push(d.last - start - wrote);
      into.write.push(wrote);
      into.rate.push(d.last > d.first ? (d.count / (d.last - d.first)) * 1000 : d.count * 1000);
      into.lost += clients.sockets.length - d.count;
      // a quiet moment between changes, as between goals
      await new Promise((r) => setTimeout(r, 300));
    };
    const feed_: Measured = { toLast: [], toFirst: [], answeredToLast: [], write: [], rate: [], lost: 0 };
    // A write that fails (the Worker no longer answering) ends the changes; what was measured is still printed.
    let stopped: string | undefined;
    try {
      for (let i = 0; i < CHANGES; i++) {
        await measure(async () => {
          const body = new URLSearchParams({
            intent: "live-score",
            fixtureId: adminFixture.id,
            returnTo: "/admin/fixtures",
            homeScore: String(i % 10),
            awayScore: String((i + 1) % 10),
            liveStatus: "IN_PLAY",
          });
          const res = await fetch(`${web!.url}/admin/fixtures`, {
            method: "POST",
            redirect: "manual",
            headers: { Cookie: adminSession.cookie, Origin: web!.url, "Content-Type": "application/x-www-form-urlencoded" },
            body,
          });
          await res.arrayBuffer();
          if (res.status >= 400) throw new Error(`the admin's live score answered ${res.status}`);
        }, admin_);
      }
      const feedMatch = matches.find((m) => String(m.id) === feedFixture.feed_match_id)!;
      for (let i = 0; i < FEED_CHANGES; i++) {
        const list = feed.matches(CODE, SEASON_YEAR).map((m) =>
          m.id === feedMatch.id
            ? {
                ...m,
                status: "IN_PLAY" as const,
                score: { ...m.score, fullTime: { home: i + 1, away: 0 } },
                lastUpdated: new Date(tickAt + 30_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
              }
            : m,
        );
        feed.setMatches(CODE, SEASON_YEAR, list);
        await measure(feedTick, feed_);
      }
    } catch (error) {
      stopped = `${(error as Error).message}${(error as { cause?: Error }).cause ? `: ${(error as { cause: Error }).cause.message}` : ""}`;
      log(`the changes stopped: ${stopped}`);
    }
    const end = procs();

    console.log("");
    log(
      `one object (${LEAGUE} ${SEASON}, match day ${MATCH_DAY}), ${clients.sockets.length} sockets, ${os.cpus().length} cores, ${pg.kind}`,
    );
    report("admin's live score (POST /admin/fixtures, notify after COMMIT through waitUntil)", admin_, clients.sockets.length);
    report("feed's live score (scheduler tick -> sync -> COMMIT -> LIVE binding -> notify)", feed_, clients.sockets.length);
    const delivered = [...clients.deliveries.values()].reduce((n, d) => n + d.count, 0);
    log(`messages delivered in all: ${delivered}, last sequence ${expected}`);
    log(`processes before connecting: ${procText(before)}`);
    log(`processes connected:         ${procText(connected)}`);
    log(`processes at the end:        ${procText(end)}`);
    log(`per socket (connected - before): ${perSocket(before, connected, clients.sockets.length)}`);
    const errors = [...clients.errors.entries()].map(([k, n]) => `${k} x${n}`);
    log(`socket errors: ${errors.length ? errors.join("; ") : "none"}; closed early: ${clients.closedEarly}`);
    if (stopped) {
      log(
        `NOT COMPLETE: the changes stopped (${stopped}); still open: ${clients.sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length}`,
      );
      process.exitCode = 1;
    }
  } finally {
    clients.close();
    await scheduler?.stop();
    await web?.stop();
    await feed.close();
    await sql.end({ timeout: 5 });
    await pg.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
