/**
 * Fuzzes every page's query parameters and every form's fields (found by reading the pages themselves, so new
 * routes and fields are covered without editing this list) with oversize numbers, impossible dates, control
 * characters, huge strings and wrong content types. Whatever the answer, it must not be a 5xx.
 *
 * Forms that destroy or end something (delete, unregister, log out) are fuzzed with every field bad at once,
 * so they act on nothing; the others one field at a time, the rest keeping the page's own values. Because a
 * form with one bad field may still succeed (join with a bad redirectTo joins), this runs in its own project
 * after every other project has finished (playwright.config.ts), on the demo accounts.
 */
import type { APIRequestContext, Page } from "@playwright/test";
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
const DESTRUCTIVE = /delete|unregister|logout|remove/i;

type FormSpec = { action: string; fields: [string, string][] };

async function logIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/(dashboard|setup-profile)/);
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

async function expectNo5xx(request: APIRequestContext, label: string, send: () => Promise<{ status(): number }>) {
  const res = await send();
  expect(res.status(), label).toBeLessThan(500);
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
    "/scout",
    "/terms",
    "/privacy",
    "/dev/outbox",
  ];
  for (const id of ids) pages.push(`/competition/${id}`, `/select-team/${id}`, `/leaderboard/${id}`, `/season-leaderboard/${id}`);
  if (email.startsWith("admin"))
    pages.push(
      "/admin/fixtures",
      "/admin/fixtures?section=create",
      "/admin/fixtures?section=upload",
      "/admin/fixtures?section=notes",
      "/admin/fixtures-template.csv",
      "/admin/feed",
    );
  return pages;
}

for (const email of ["player@footycoach.test", "admin@footycoach.test"]) {
  test(`no 5xx from fuzzed query parameters and forms (${email.split("@")[0]})`, async ({ page }) => {
    test.setTimeout(300_000);
    await logIn(page, email);
    const origin = new URL(page.url()).origin;
    const request = page.request;
    const pages = await pagesFor(email);
    let sent = 0;

    // The GETs change nothing, so they go four at a time (the server answers them side by side; one at a time, the
    // run was mostly waiting). The POSTs below stay one at a time: they write.
    const gets: { label: string; url: string }[] = [];
    for (const path of pages) {
      // Every parameter bad at once, for each bad value; then each parameter alone with one of them.
      for (const value of BAD_VALUES) {
        const url = new URL(path, origin);
        for (const param of PARAMS) url.searchParams.set(param, value);
        gets.push({
          label: `GET ${url.pathname} with every parameter = ${JSON.stringify(value.slice(0, 30))}`,
          url: url.pathname + url.search,
        });
      }
      for (const [i, param] of PARAMS.entries()) {
        // One bad value each, rotating (the all-at-once pass above gave every value to every parameter).
        const value = BAD_VALUES[i % BAD_VALUES.length];
        const url = new URL(path, origin);
        url.searchParams.set(param, value);
        gets.push({ label: `GET ${url.pathname}?${param}=${JSON.stringify(value.slice(0, 30))}`, url: url.pathname + url.search });
      }
      // Path segments that are not ids, and broken percent-escapes.
      for (const suffix of ["/%E0%A4%A", "/99999999999999999999999", "/..%2f..%2f"]) {
        if (/\/(competition|select-team|leaderboard|season-leaderboard)\//.test(path)) {
          const base = path.slice(0, path.lastIndexOf("/"));
          gets.push({ label: `GET ${base}${suffix}`, url: base + suffix });
        }
      }
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < gets.length) {
          const { label, url } = gets[next++];
          await expectNo5xx(request, label, () => request.get(url, { maxRedirects: 0 }));
          sent++;
        }
      }),
    );

    const seen = new Set<string>();
    for (const path of pages) {
      if (path.endsWith(".csv")) continue;
      await page.goto(path);
      for (const form of await formsOf(page)) {
        if (form.action.startsWith("/logout")) continue;
        // One of each kind of form (a list page repeats its join form per card).
        const kind = `${form.action.split("?")[0].replace(/[0-9a-f-]{36}/g, ":id")} ${form.fields.map(([n, v]) => (n === "intent" ? `${n}=${v}` : n)).join(",")}`;
        if (seen.has(kind)) continue;
        seen.add(kind);
        const destructive = form.fields.some(([, v]) => DESTRUCTIVE.test(v)) || DESTRUCTIVE.test(form.action);
        const post = (fields: [string, string][], label: string) =>
          expectNo5xx(request, `POST ${form.action} ${label}`, () =>
            request.post(form.action, { form: Object.fromEntries(fields), headers: { Origin: origin }, maxRedirects: 0 }),
          );
        for (const value of BAD_VALUES.slice(0, 8)) {
          const keepIntent = form.fields.map(([n, v]): [string, string] => [n, n === "intent" ? v : value]);
          await post(keepIntent, `all fields = ${JSON.stringify(value.slice(0, 30))}`);
          sent++;
        }
        // Each field alone with two of the bad values, rotating so that the fields of a form share all eight between
        // them (every value on every field took longer than the test's five minutes once the forms multiplied).
        if (!destructive) {
          for (const [i, [name]] of form.fields.entries()) {
            if (name === "intent") continue;
            for (const value of [BAD_VALUES[i % 8], BAD_VALUES[(i + 4) % 8]]) {
              const one = form.fields.map(([n, v], j): [string, string] => [n, j === i ? value : v]);
              await post(one, `${name} = ${JSON.stringify(value.slice(0, 30))}`);
              sent++;
            }
          }
        }
        for (const type of ["application/json", "multipart/form-data", "text/plain"]) {
          const res = await request.post(form.action, {
            data: '{"intent":"x"}',
            headers: { Origin: origin, "Content-Type": type },
            maxRedirects: 0,
          });
          expect(res.status(), `POST ${form.action} as ${type}`).toBe(400);
          sent++;
        }
      }
    }
    console.log(`[fuzz] ${email}: ${sent} requests, none answered 5xx`);
  });
}
