/**
 * Fuzzes every page's query parameters and every form's fields (found by reading the pages themselves, so new
 * routes and fields are covered without editing this list) with oversize numbers, impossible dates, control
 * characters, huge strings and wrong content types. Whatever the answer, it must not be a 5xx.
 *
 * Query parameters: every parameter bad at once on every page, for each bad value (the shared list below, the
 * route's known ones and those the page's own links and GET forms use); then each parameter the page reads alone
 * (those of its links and GET forms, and the route's known ones): a parameter the page does not read adds nothing
 * alone that the all-at-once pass did not already send it.
 *
 * Forms that destroy or end something (delete, unregister, log out) are fuzzed with every field bad at once,
 * so they act on nothing; the others one field at a time, the rest keeping the page's own values. Because a
 * form with one bad field may still succeed (join with a bad redirectTo joins), this runs in its own project
 * after every other project has finished (playwright.config.ts), on the demo accounts.
 */
import type { APIResponse, Page } from "@playwright/test";
import { db, expect, test } from "./fixtures";
import { E2E } from "./env";

const BAD_VALUES = [
  "99999999999999999999999",
  "-1",
  "1e400",
  "2027-02-30",
  "0000-01-01",
  "\u0000\u0001\u001f",
  "/\t/evil.example",
  "line\r\nbreak",
  "\\u{1F600}\uFFFF\uD800",
  "'; select pg_sleep(1); --",
  "x".repeat(3_000),
];
const PARAMS = [
  "page",
  "playersPage",
  "tab",
  "league",
  "season",
  "type",
  "status",
  "md",
  "matchDay",
  "team",
  "section",
  "edit",
  "editNote",
  "confirmDelete",
  "join",
  "create",
  "created",
  "confirm",
  "error",
  "redirectTo",
  "token",
  "q",
  "view",
  "competition",
];
/**
 * Parameters a route reads that its page need not link (from the route modules: pages past the last, links mailed
 * or shared, confirm steps, redirect targets); the page's own links and GET forms give the rest.
 */
const ROUTE_PARAMS: [RegExp, string[]][] = [
  [/^\/(login|setup-profile)$/, ["redirectTo"]],
  [/^\/signup$/, ["ref"]],
  [/^\/(confirm-email|reset-password)$/, ["token"]],
  [/^\/(dashboard|competitions)$/, ["create"]],
  [/^\/competitions$/, ["page", "join", "created"]],
  [/^\/my-competitions$/, ["page"]],
  [/^\/competition\/[^/]+$/, ["tab", "playersPage", "confirm", "archiveDay", "picksPage"]],
  [/^\/select-team\/[^/]+$/, ["confirm", "error", "md"]],
  [/^\/(season-)?leaderboard\/[^/]+$/, ["page", "route"]],
  [/^\/scout$/, ["competition", "tab", "view", "md", "edit"]],
  [/^\/admin(\/fixtures)?$/, ["section", "edit"]],
  [/^\/admin\/release-notes$/, ["editNote", "confirmDelete"]],
];
const DESTRUCTIVE = /delete|unregister|logout|remove/i;

type FormSpec = { action: string; fields: [string, string][] };

async function logIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/(dashboard|setup-profile)/);
}

/** The query parameters the page's own links and GET forms use on this same path. */
async function paramsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const names = new Set<string>();
    for (const a of Array.from(document.querySelectorAll<HTMLAnchorElement>("a[href]"))) {
      const url = new URL(a.href, location.href);
      if (url.origin === location.origin && url.pathname === location.pathname) for (const name of url.searchParams.keys()) names.add(name);
    }
    for (const f of Array.from(document.forms)) {
      if ((f.getAttribute("method") ?? "get").toLowerCase() !== "get") continue;
      if (new URL(f.getAttribute("action") ?? location.pathname, location.href).pathname !== location.pathname) continue;
      for (const el of Array.from(f.elements) as HTMLInputElement[]) if (el.name) names.add(el.name);
    }
    return [...names];
  });
}

/** The page's POST forms (action resolved against the page) and their named fields with current values. */
async function formsOf(page: Page): Promise<FormSpec[]> {
  return page.$$eval("form", (forms) =>
    forms
      .filter((f) => (f.getAttribute("method") ?? "get").toLowerCase() === "post")
      .map((f) => {
        const fields: [string, string][] = [];
        for (const el of Array.from(f.elements) as HTMLInputElement[]) {
          if (!el.name || el.type === "file" || ((el.type === "radio" || el.type === "checkbox") && !el.checked)) continue;
          fields.push([el.name, el.value]);
        }
        const submitter = f.querySelector<HTMLButtonElement>("button[name][value]");
        if (submitter && !fields.some(([n]) => n === submitter.name)) fields.push([submitter.name, submitter.value]);
        return {
          action:
            new URL(f.getAttribute("action") ?? location.pathname + location.search, location.href).pathname +
            new URL(f.getAttribute("action") ?? location.pathname + location.search, location.href).search,
          fields,
        };
      }),
  );
}

async function expectNo5xx(label: string, send: () => Promise<APIResponse>) {
  const res = await send();
  // A 5xx says what answered it (the app's own 503 page, or wrangler's dev proxy).
  const why = res.status() >= 500 ? `, answered: ${(await res.text()).slice(0, 300)}` : "";
  expect(res.status(), label + why).toBeLessThan(500);
}

async function pagesFor(email: string) {
  const comps = await db()<{ id: string }[]>`
    select id from (select distinct on (type) id, type from public.competitions where type in ('knockout', 'season') order by type, created_at) c`;
  const ids = comps.map((c) => c.id);
  const pages = [
    "/",
    "/login",
    "/signup",
    "/confirm-email",
    "/forgot-password",
    "/reset-password",
    "/setup-profile",
    "/dashboard",
    "/competitions",
    "/my-competitions",
    "/profile",
    "/notices",
    "/stats",
    "/scout",
    "/whats-new",
    "/terms",
    "/privacy",
    "/dev/outbox",
  ];
  for (const id of ids)
    pages.push(
      `/competition/${id}`,
      `/select-team/${id}`,
      `/leaderboard/${id}`,
      `/season-leaderboard/${id}`,
      `/competition/${id}/standings.csv`,
      `/competition/${id}/picks.csv`,
    );
  if (email.startsWith("admin"))
    pages.push(
      "/admin",
      "/admin/fixtures",
      "/admin/competitions",
      "/admin/upload",
      "/admin/release-notes",
      "/admin/fixtures-template.csv",
      "/admin/feed",
    );
  return pages;
}

/**
 * Runs `send` on each queued item, `width` at a time, as items are queued; `finish()` waits for the queue to drain
 * and throws the first failure, which `throwIfFailed()` throws as soon as it has happened.
 */
function pool<T>(width: number, send: (item: T) => Promise<void>) {
  const queue: T[] = [];
  let waiting: (() => void)[] = [];
  let closed = false;
  let failure: { error: unknown } | null = null;
  const wakeAll = () => {
    const w = waiting;
    waiting = [];
    for (const wake of w) wake();
  };
  const workers = Promise.all(
    Array.from({ length: width }, async () => {
      for (;;) {
        const item = queue.shift();
        if (item !== undefined) {
          try {
            await send(item);
          } catch (error) {
            failure ??= { error };
            throw error;
          }
        } else if (closed) return;
        else await new Promise<void>((resolve) => waiting.push(resolve));
      }
    }),
  );
  workers.catch(() => {}); // awaited in finish(); this only keeps an early failure from counting as unhandled
  return {
    push(...items: T[]) {
      queue.push(...items);
      wakeAll();
    },
    throwIfFailed() {
      if (failure) throw failure.error;
    },
    async finish() {
      closed = true;
      wakeAll();
      await workers;
    },
  };
}

for (const email of ["player@footycoach.test", "admin@footycoach.test"]) {
  test(`no 5xx from fuzzed query parameters and forms (${email.split("@")[0]})`, async ({ page }) => {
    test.setTimeout(300_000);
    await logIn(page, email);
    const origin = new URL(page.url()).origin;
    const request = page.request;
    const pages = await pagesFor(email);
    const started = Date.now();
    let gets = 0;
    let posts = 0;

    // The GETs change nothing, so they go four at a time (the server answers them side by side; one at a time, the
    // run was mostly waiting), queued page by page as the pages are read, beside the POSTs below, which go one at
    // a time: they write.
    const getPool = pool(4, async ({ label, url }: { label: string; url: string }) => {
      await expectNo5xx(label, () => request.get(url, { maxRedirects: 0 }));
      gets++;
    });
    // Each URL once (the path-segment cases are the same for every competition).
    const queued = new Set<string>();
    const queueGet = (label: string, url: string) => {
      if (queued.has(url)) return;
      queued.add(url);
      getPool.push({ label, url });
    };
    const queueGets = (path: string, pageParams: string[]) => {
      const url = (params: string[], value: string) => {
        const u = new URL(path, origin);
        for (const param of params) u.searchParams.set(param, value);
        return u.pathname + u.search;
      };
      const pathname = new URL(path, origin).pathname;
      const known = ROUTE_PARAMS.filter(([route]) => route.test(pathname)).flatMap(([, names]) => names);
      const reads = [...new Set([...pageParams, ...known])];
      // Every parameter bad at once, for each bad value.
      const all = [...new Set([...PARAMS, ...reads])];
      for (const value of BAD_VALUES)
        queueGet(`GET ${pathname} with every parameter = ${JSON.stringify(value.slice(0, 30))}`, url(all, value));
      // Then each parameter the page reads alone, the others absent, with one bad value each, rotating.
      for (const [i, param] of reads.entries()) {
        const value = BAD_VALUES[i % BAD_VALUES.length];
        queueGet(`GET ${pathname}?${param}=${JSON.stringify(value.slice(0, 30))}`, url([param], value));
      }
      // Path segments that are not ids, and broken percent-escapes.
      if (/\/(competition|select-team|leaderboard|season-leaderboard)\//.test(path)) {
        const base = path.slice(0, path.lastIndexOf("/"));
        for (const suffix of ["/%E0%A4%A", "/99999999999999999999999", "/..%2f..%2f"]) queueGet(`GET ${base}${suffix}`, base + suffix);
      }
      return reads;
    };

    const seen = new Set<string>();
    const seenActions = new Set<string>();
    const readCounts: string[] = [];
    for (const path of pages) {
      if (path.endsWith(".csv")) {
        queueGets(path, []);
        continue;
      }
      getPool.throwIfFailed();
      await page.goto(path);
      const reads = queueGets(path, new URL(page.url()).pathname === new URL(path, origin).pathname ? await paramsOf(page) : []);
      readCounts.push(`${path.replace(/[0-9a-f-]{36}/g, ":id")} ${reads.length}`);
      for (const form of await formsOf(page)) {
        if (form.action.startsWith("/logout")) continue;
        // One of each kind of form (a list page repeats its join form per card).
        const kind = `${form.action.split("?")[0].replace(/[0-9a-f-]{36}/g, ":id")} ${form.fields.map(([n, v]) => (n === "intent" ? `${n}=${v}` : n)).join(",")}`;
        if (seen.has(kind)) continue;
        seen.add(kind);
        const destructive = form.fields.some(([, v]) => DESTRUCTIVE.test(v)) || DESTRUCTIVE.test(form.action);
        const post = (fields: [string, string][], label: string) =>
          expectNo5xx(`POST ${form.action} ${label}`, () =>
            request.post(form.action, { form: Object.fromEntries(fields), headers: { Origin: origin }, maxRedirects: 0 }),
          );
        for (const value of BAD_VALUES.slice(0, 8)) {
          const keepIntent = form.fields.map(([n, v]): [string, string] => [n, n === "intent" ? v : value]);
          await post(keepIntent, `all fields = ${JSON.stringify(value.slice(0, 30))}`);
          posts++;
        }
        // Each field alone with two of the bad values, rotating so that the fields of a form share all eight between
        // them (every value on every field took longer than the test's five minutes once the forms multiplied).
        if (!destructive) {
          for (const [i, [name]] of form.fields.entries()) {
            if (name === "intent") continue;
            for (const value of [BAD_VALUES[i % 8], BAD_VALUES[(i + 4) % 8]]) {
              const one = form.fields.map(([n, v], j): [string, string] => [n, j === i ? value : v]);
              await post(one, `${name} = ${JSON.stringify(value.slice(0, 30))}`);
              posts++;
            }
          }
        }
        // The same three requests whatever the form: once per action.
        if (seenActions.has(form.action)) continue;
        seenActions.add(form.action);
        for (const type of ["application/json", "multipart/form-data", "text/plain"]) {
          const res = await request.post(form.action, {
            data: '{"intent":"x"}',
            headers: { Origin: origin, "Content-Type": type },
            maxRedirects: 0,
          });
          expect(res.status(), `POST ${form.action} as ${type}`).toBe(400);
          posts++;
        }
      }
    }
    await getPool.finish();
    console.log(`[fuzz] ${email}: parameters read alone per page: ${readCounts.join(", ")}`);
    console.log(
      `[fuzz] ${email}: ${gets + posts} requests (${gets} GET, ${posts} POST) in ${((Date.now() - started) / 1000).toFixed(1)} s, none answered 5xx`,
    );
  });
}
