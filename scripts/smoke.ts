/**
 * Post-deploy check of both Workers (docs/operations/deploy.md, step 6):
 *
 *   npm run smoke -- https://footycoach.app [https://footycoach-scheduler.<account>.workers.dev]
 *
 * Web: /functions/v1/health must answer 200 {ok: true} (valid configuration, database reachable) and /login
 * must render. Scheduler (when its URL is given): /health must answer 200 (database reachable, push configured).
 * Prints one line per check; exits 1 with the reasons when any fails (the Workers' answers list problems by
 * name, never values).
 */
interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text.slice(0, 200) };
  }
}

async function check(name: string, run: () => Promise<Omit<Check, "name">>): Promise<Check> {
  try {
    return { name, ...(await run()) };
  } catch (error) {
    return { name, ok: false, detail: `no answer: ${(error as Error).message}` };
  }
}

export async function smoke(webUrl: string, schedulerUrl?: string): Promise<Check[]> {
  const web = webUrl.replace(/\/$/, "");
  const checks = [
    await check("web health", async () => {
      const { status, body } = await getJson(`${web}/functions/v1/health`);
      return { ok: status === 200 && (body as { ok?: boolean }).ok === true, detail: `${status} ${JSON.stringify(body)}` };
    }),
    await check("web login page", async () => {
      const res = await fetch(`${web}/login`, { signal: AbortSignal.timeout(15_000) });
      const html = await res.text();
      return { ok: res.status === 200 && html.includes('name="password"'), detail: `${res.status}` };
    }),
  ];
  if (schedulerUrl) {
    checks.push(
      await check("scheduler health", async () => {
        const { status, body } = await getJson(`${schedulerUrl.replace(/\/$/, "")}/health`);
        return { ok: status === 200 && (body as { ok?: boolean }).ok === true, detail: `${status} ${JSON.stringify(body)}` };
      }),
    );
  }
  return checks;
}

async function main() {
  const [webUrl, schedulerUrl] = process.argv.slice(2);
  if (!webUrl) {
    console.error("usage: npm run smoke -- <web url> [<scheduler url>]");
    process.exit(2);
  }
  const checks = await smoke(webUrl, schedulerUrl);
  for (const c of checks) console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`);
  if (!schedulerUrl) console.log("note: no scheduler URL given; the scheduler Worker was not checked");
  const failed = checks.filter((c) => !c.ok);
  if (failed.length) {
    console.error(`smoke check failed: ${failed.map((c) => c.name).join(", ")}`);
    process.exit(1);
  }
  console.log("smoke check passed");
}

if (process.argv[1]?.endsWith("smoke.ts")) await main();
