/**
 * `npm run profile:page [-- /path]`: where a page's server CPU goes. Serves the built app under wrangler dev on a
 * fresh database with the demo data (as `npm run bench:lighthouse` does), signs in as the demo player, warms the
 * page, then records a V8 CPU profile of the web Worker (DevTools protocol on wrangler's inspector port) while
 * PROFILE_REQUESTS (default 200) requests for the page run one at a time, and prints the functions with the most
 * self time, grouped by module (React's renderer, Remix, postgres.js, the app's own modules).
 *
 * A diagnostic, not a benchmark: the figures are shares of the sampled CPU, not a target. SKIP_BUILD=1 reuses build/.
 */
import path from "node:path";
import os from "node:os";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import WebSocket from "ws";
import { ROOT, buildApp, freePort, prepareDatabase, startWorker, workerVars, signInDemoPlayer } from "./app-server";
import { createTestDatabase, startPostgres } from "../tests/support/pg";

const REQUESTS = Math.max(1, Number(process.env.PROFILE_REQUESTS ?? 200));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The web Worker's DevTools target on wrangler's inspector proxy. */
async function inspectorSocket(port: number): Promise<WebSocket> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json`);
      const targets = await res.json<{ webSocketDebuggerUrl: string; title?: string }[]>();
      const target = targets.find((t) => /footycoach-web/.test(t.webSocketDebuggerUrl + (t.title ?? ""))) ?? targets[0];
      if (target) {
        const ws = new WebSocket(target.webSocketDebuggerUrl);
        await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
        return ws;
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`no inspector target on port ${port}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function cdp(ws: WebSocket) {
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.on("message", (data) => {
    const msg = JSON.parse((data as Buffer).toString("utf8")) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  return <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      pending.set(id, resolve as (r: unknown) => void);
      ws.send(JSON.stringify({ id, method, params }));
    });
}

/**
 * The bundle's module markers: esbuild writes `// <source path>` before each module it bundles, so a line of
 * wrangler's dev bundle belongs to the last marker above it. Read from the newest dev bundle under .wrangler/tmp.
 */
function bundleMarkers(): { line: number; source: string }[] {
  const dir = path.join(ROOT, ".wrangler", "tmp");
  const newest = readdirSync(dir)
    .filter((d) => d.startsWith("dev-") && existsSync(path.join(dir, d, "index.js")))
    .map((d) => path.join(dir, d, "index.js"))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return [];
  const markers: { line: number; source: string }[] = [];
  readFileSync(newest, "utf8")
    .split("\n")
    .forEach((text, i) => {
      const m = /^\/\/ ((?:\.\.\/)*(?:node_modules\/(?:@[^/]+\/)?[^/]+|app\/[^/]+|build\/server|workers\/[^/]+|functions\/[^/]+)\S*)$/.exec(
        text,
      );
      if (m) markers.push({ line: i + 1, source: m[1] });
    });
  return markers;
}

/** A marker's package (node_modules/<name>) or the app's folder (app/models, build/server: the route modules). */
function partOf(source: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (m) return m[1];
  const app = /^(?:\.\.\/)*(app\/[^/]+|build\/server|workers\/[^/]+|functions\/[^/]+)/.exec(source);
  return app ? app[1] : source;
}

let markers: { line: number; source: string }[] = [];

/** Which part of the bundle a frame belongs to: its package or app folder, found from the bundle's markers. */
function moduleOf(node: ProfileNode): string {
  const { url, functionName, lineNumber } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (path.basename(url) !== "index.js" || !markers.length) return path.basename(url);
  let lo = 0;
  let hi = markers.length - 1;
  if (markers[0].line > lineNumber + 1) return "index.js (before the first module)";
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (markers[mid].line <= lineNumber + 1) lo = mid;
    else hi = mid - 1;
  }
  return partOf(markers[lo].source);
}

function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const name = `${node.callFrame.functionName || "(anonymous)"} ${moduleOf(node)}:${node.callFrame.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    mod.set(moduleOf(node), (mod.get(moduleOf(node)) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000 / REQUESTS).toFixed(2).padStart(6)} ms/req  ${k}`);
  return { totalMs: total / 1000, top: top(fn, 40), modules: top(mod, 16) };
}

async function main() {
  const page = process.argv[2] ?? "/dashboard";
  if (process.env.SKIP_BUILD !== "1") await buildApp((m) => console.log(m));
  const pg = await startPostgres();
  const databaseUrl = await createTestDatabase(pg.url);
  await prepareDatabase(databaseUrl, { seed: true });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-profile-"));
  const inspectorPort = await freePort();
  const worker = await startWorker({
    port: await freePort(),
    databaseUrl,
    stateDir,
    quiet: true,
    inspectorPort,
    vars: workerVars(stateDir, "test"),
  });
  try {
    const cookie = await signInDemoPlayer(worker.url);
    const get = async () => {
      const res = await fetch(worker.url + page, { headers: { Cookie: cookie }, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
    };
    for (let i = 0; i < 30; i++) await get();
    markers = bundleMarkers();
    const ws = await inspectorSocket(inspectorPort);
    const send = cdp(ws);
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 100 });
    await send("Profiler.start");
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) await get();
    const wall = performance.now() - started;
    const { profile } = await send<{ profile: Profile }>("Profiler.stop");
    ws.close();
    const { totalMs, top, modules } = summarize(profile);
    console.log(`\n${page}: ${REQUESTS} requests one at a time, ${(wall / REQUESTS).toFixed(1)} ms each (wall)`);
    console.log(`sampled JavaScript CPU of the web Worker: ${(totalMs / REQUESTS).toFixed(2)} ms a request (idle excluded below)\n`);
    console.log("by module (self time):");
    for (const line of modules) console.log(`  ${line}`);
    console.log("\nby function (self time):");
    for (const line of top) console.log(`  ${line}`);
  } finally {
    await worker.stop();
    await pg.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
