/**
 * `npm run bench:lighthouse`: Lighthouse (npm `lighthouse`, its default mobile preset: a phone screen, simulated
 * slow 4G and 4x CPU slowdown) on /login, /dashboard, /select-team/<id> and /scout, served as `npm start` serves
 * them (the built app under wrangler dev, on a fresh database with the demo data), signed in as the demo player.
 * Prints the performance, accessibility and best-practices scores of each page; the target is >= 95 for each.
 *
 * Chromium: Debian's (/usr/bin/chromium, or CHROMIUM_PATH). SKIP_BUILD=1 reuses build/. One page at a time: the
 * figures are a 2-core machine's; performance varies from run to run by a few points (LH_RUNS=3 keeps the median).
 */
import path from "node:path";
import os from "node:os";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import postgres from "postgres";
import { buildApp, freePort, prepareDatabase, startWorker, workerVars, signInDemoPlayer, DEMO_PLAYER } from "./app-server";
import { createTestDatabase, startPostgres } from "../tests/support/pg";

const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
const TARGET = 95;
const RUNS = Math.max(1, Number(process.env.LH_RUNS ?? 1));
/** LH_REPORT_DIR=dir writes each page's full Lighthouse JSON report there (for the details behind a score). */
const REPORT_DIR = process.env.LH_REPORT_DIR;
/** LH_PAGES=login,scout measures only those pages (by the path's first segment); all four by default. */
const ONLY = process.env.LH_PAGES ? new Set(process.env.LH_PAGES.split(",").map((p) => p.trim().replace(/^\//, ""))) : null;
/** LH_VERBOSE=1 prints each run's score and metrics: simulated FCP, LCP, TBT and the observed first and largest paint. */
const VERBOSE = process.env.LH_VERBOSE === "1";

async function knockoutOfDemoPlayer(databaseUrl: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ id: string }[]>`
      select c.id::text from public.competitions c
        join public.user_selections m on m.competition_id = c.id
        join account.accounts a on a.id = m.user_id and a.email = ${DEMO_PLAYER.email}
       where c.type = 'knockout' and c.status = 'active'
       order by c.name limit 1`;
    if (!row) throw new Error("the demo player has no active knockout competition");
    return row.id;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

type Scores = Record<(typeof CATEGORIES)[number], number>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function audit(url: string, port: number, cookie: string | null): Promise<{ scores: Scores; failing: string[] }> {
  const runs: Scores[] = [];
  let failing: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    if (REPORT_DIR) {
      mkdirSync(REPORT_DIR, { recursive: true });
      const name = new URL(url).pathname.split("/").filter(Boolean)[0] ?? "root";
      writeFileSync(path.join(REPORT_DIR, `${name}-${i + 1}.json`), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`${url} ended at ${lhr.finalDisplayedUrl} (not signed in?)`);
    if (VERBOSE) {
      const m = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
      const ms = (k: string) => String(Math.round(m[k] ?? NaN)).padStart(5);
      console.log(
        `    run ${i + 1}: performance ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}; simulated FCP ${ms("firstContentfulPaint")} LCP ${ms("largestContentfulPaint")} TBT ${ms("totalBlockingTime")} ms; observed first paint ${ms("observedFirstContentfulPaint")} LCP ${ms("observedLargestContentfulPaint")} load ${ms("observedLoad")} ms`,
      );
    }
    runs.push(Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Scores);
    // The audits that cost points (score below 0.9 and counted in a category), for the report.
    const counted = new Set(CATEGORIES.flatMap((c) => lhr.categories[c]?.auditRefs.filter((r) => r.weight > 0).map((r) => r.id) ?? []));
    failing = Object.values(lhr.audits)
      .filter((a) => counted.has(a.id) && a.score !== null && a.score < 0.9)
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r[c]))])) as Scores;
  return { scores, failing };
}

async function main() {
  if (process.env.SKIP_BUILD !== "1") await buildApp((m) => console.log(m));
  const pg = await startPostgres();
  const databaseUrl = await createTestDatabase(pg.url);
  await prepareDatabase(databaseUrl, { seed: true });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-lighthouse-"));
  const worker = await startWorker({ port: await freePort(), databaseUrl, stateDir, quiet: true, vars: workerVars(stateDir, "test") });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  let failed = false;
  try {
    const cookie = await signInDemoPlayer(worker.url);
    const knockout = await knockoutOfDemoPlayer(databaseUrl);
    // Warm the Worker (its first requests compile the bundle), so the first page is measured like the others.
    for (const p of ["/login", "/dashboard", `/select-team/${knockout}`, "/scout"])
      await fetch(worker.url + p, { headers: { Cookie: cookie } });
    const pages: [string, string | null][] = [
      ["/login", null],
      ["/dashboard", cookie],
      [`/select-team/${knockout}`, cookie],
      ["/scout", cookie],
    ];
    console.log(
      `\nFootyCoach Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ""}(mobile preset, wrangler dev + ${pg.kind}, ${os.cpus().length} cores); target >= ${TARGET}\n`,
    );
    console.log(`${"page".padEnd(52)}${CATEGORIES.map((c) => c.padStart(16)).join("")}`);
    for (const [p, c] of pages) {
      if (ONLY && !ONLY.has(p.split("/").filter(Boolean)[0])) continue;
      const { scores, failing } = await audit(worker.url + p, chrome.port, c);
      const low = CATEGORIES.some((k) => scores[k] < TARGET);
      failed ||= low;
      console.log(`${p.padEnd(52)}${CATEGORIES.map((k) => String(scores[k]).padStart(16)).join("")}${low ? "   < target" : ""}`);
      if (failing.length) console.log(`${"".padEnd(4)}costing points: ${failing.join(", ")}`);
    }
  } finally {
    chrome.kill();
    await worker.stop();
    await pg.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
