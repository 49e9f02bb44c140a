/**
 * Layout and accessibility across the pages (issue 13 items 1 and 9):
 * - at 390 px (a phone), with the longest data the app allows (30-character usernames, the longest club names),
 *   no text is cut off inside a table cell or card and no team name breaks in the middle of a word;
 * - axe-core finds no serious or critical violation on any page state, on desktop and on mobile.
 * Every state is one page load; the states are grouped in a few tests so the run stays short.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { asUser } from "../support/pg";
import { addPick, createAccount, createFixtures, createPlayer, createScoutCompetition } from "../support/factories";
import { arrangeCompetition, currentMatchDay, demoPlayers, fixturesOf } from "./arrange";
import { db, expect, removeAfterTest, test, uniqueName } from "./fixtures";
import { E2E } from "./env";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The longest names the pages show: usernames are at most 30 characters (profiles_username_format). */
function longUsername(first: string) {
  const tag = Math.random().toString(36).slice(2, 8).padEnd(6, "0");
  return `${first}_${"Featherstonehaugh".slice(0, 30 - first.length - 2 - tag.length)}_${tag}`;
}

/** The words of the club names these tests put on the pages: none may be split across two lines. */
const TEAM_WORDS = ["Wolverhampton", "Wanderers", "Tottenham", "Hotspur", "Brighton", "Albion", "Nottingham", "Forest", "Leeds", "United"];

/**
 * A player with a 30-character username who created a knockout competition (so they manage its selections),
 * picked Wolverhampton Wanderers and Tottenham Hotspur on two match days, is in a season competition with
 * standings, and has a Scout entry on fixtures between long club names; rivals with long usernames too.
 */
async function arrangeLongData() {
  const me = await createPlayer(db(), { username: longUsername("Maximilian"), password: E2E.password });
  const rival = await createPlayer(db(), { username: longUsername("Wilhelmina"), password: E2E.password });
  // Scout leaderboards show the display name (at most 40 characters) instead of the username. Display names are
  // unique across players, and this runs more than once against one database: a tag of its own fills the 40.
  const displayName = `Wilhelmina Featherstone-Fothering ${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}`;
  await db()`update public.profiles set display_name = ${displayName} where id = ${rival.id}`;
  const others = await demoPlayers(3);
  const { matchDay } = await currentMatchDay();
  const members = [me.id, rival.id, ...others.map((p) => p.id)];

  // Two lives, auto-pick (decision 028): the Lives Left columns, an Auto-picked pick and a plan on the pages.
  const knockout = await arrangeCompetition({
    name: uniqueName("Layout Knockout Championship of the North "),
    startMatchDay: matchDay - 1,
    createdBy: me.id,
    members,
    rules: { lives: 2, missed_pick_rule: "auto" },
  });
  await addPick(db(), { userId: me.id, competitionId: knockout.id, matchDay: matchDay - 1, team: "Wolverhampton Wanderers" });
  await addPick(db(), { userId: me.id, competitionId: knockout.id, matchDay, team: "Tottenham Hotspur" });
  await addPick(db(), { userId: me.id, competitionId: knockout.id, matchDay: matchDay + 1, team: "Nottingham Forest" });
  await db()`update public.team_selections set auto_picked = true
              where competition_id = ${knockout.id} and user_id = ${me.id} and match_day = ${matchDay - 1}`;
  await addPick(db(), { userId: rival.id, competitionId: knockout.id, matchDay, team: "Brighton & Hove Albion" });
  await db()`update public.user_selections set status = 'eliminated', knocked_out_on = ${matchDay - 1}
              where competition_id = ${knockout.id} and user_id = ${others[0].id}`;

  const season = await arrangeCompetition({ name: uniqueName("Layout Season "), type: "season", members, rules: { joker: true } });
  const stats = [
    [me.id, 3, 1, 0, 9, 2],
    [rival.id, 2, 1, 1, 6, 5],
  ] as const;
  for (const [id, w, d, l, gf, ga] of stats) {
    await db()`update public.user_selections set wins = ${w}, draws = ${d}, losses = ${l}, goals_for = ${gf},
                      goals_against = ${ga}, points = ${3 * w + d}
                where competition_id = ${season.id} and user_id = ${id}`;
  }
  await db()`select private.rerank_competition(${season.id}::uuid)`;

  const scout = await arrangeScout(me.id, rival.id);
  return { me, rival, knockout, season, scout, matchDay };
}

/** A Scout competition on a season of its own (its own leaderboards) with an entry for each player. */
async function arrangeScout(...players: string[]) {
  const tag = uniqueName("");
  const season = `LA ${tag}`;
  const t = new Date(Math.ceil((Date.now() + 3 * DAY) / HOUR) * HOUR);
  const fixtures = await createFixtures(db(), "Premier League", season, [
    { matchDay: 1, kickoff: t, home: "Wolverhampton Wanderers", away: "Brighton & Hove Albion" },
    { matchDay: 1, kickoff: new Date(t.getTime() + HOUR), home: "Tottenham Hotspur", away: "Nottingham Forest" },
  ]);
  const competition = await createScoutCompetition(db(), {
    name: `Layout Scout ${tag}`,
    league: "Premier League",
    season,
    startDate: "today",
    startMatchDay: 1,
    totalMatchDays: 2,
  });
  removeAfterTest(competition);
  for (const userId of players) {
    await asUser(db(), userId, async (tx) => {
      await tx`select public.redeem_ticket_for_entry(${userId}, ${competition.id})`;
      const [entry] = await tx<{ id: string }[]>`
        select id from public.scout_entries where competition_id = ${competition.id} and user_id = ${userId}`;
      const predictions = fixtures.map((f) => ({ fixture_id: f.id, home_goals: 2, away_goals: 1 }));
      await tx`select public.save_scout_predictions(${entry.id}, ${tx.json(predictions)})`;
    });
  }
  return competition;
}

/** One page load, then wait for the page's heading (the pages render on the server, so this is the content). */
async function open(page: Page, path: string, status = 200) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(status);
  await expect(page.locator("h1").first()).toBeVisible();
}

// ---------------------------------------------------------------------------------------------------------
// Item 1: nothing cut off at 390 px

interface Clipped {
  path: string;
  element: string;
  text: string;
  scrollWidth: number;
  clientWidth: number;
}

/**
 * Every visible table cell, caption and card (and every box inside a card: texts, badges, lists) on the page
 * whose content is wider than the box: its text is cut off or hidden behind a sideways scroll. `exempt`
 * matches the boxes whose ellipsis is intended. Lists made to scroll sideways (the dashboard's row of upcoming
 * cards) are neither cells nor cards: the cards in them are checked.
 */
async function clippedBoxes(page: Page, exempt: string): Promise<Clipped[]> {
  const found = await page.evaluate((exemptSelector) => {
    // Inside a visually hidden box (1px, clipped: a card table's column headings) nothing is seen.
    const hidden = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        const r = e.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return true;
      }
      return false;
    };
    const out: Omit<Clipped, "path">[] = [];
    const root = document.querySelector("main") ?? document.body;
    for (const el of root.querySelectorAll<HTMLElement>("td, th, caption, .card, .card *")) {
      if (exemptSelector && el.matches(exemptSelector)) continue;
      if (el.closest("svg, select, option, script, style")) continue;
      const style = getComputedStyle(el);
      if (style.display === "inline" || style.display === "contents" || style.display === "none") continue;
      if (el.getClientRects().length === 0 || hidden(el)) continue;
      if (el.scrollWidth > el.clientWidth) {
        const classes = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "";
        out.push({
          element: el.tagName.toLowerCase() + classes,
          text: (el.innerText ?? "").trim().replace(/\s+/g, " ").slice(0, 80),
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
        });
      }
    }
    return out;
  }, exempt);
  const where = new URL(page.url());
  return found.map((f) => ({ path: where.pathname + where.search, ...f }));
}

/** Words of the team names that the browser laid out on more than one line (split in the middle of the word). */
async function brokenTeamWords(page: Page): Promise<string[]> {
  const broken = await page.evaluate((words) => {
    const wanted = new Set(words);
    const out: string[] = [];
    const root = document.querySelector("main") ?? document.body;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const m of text.matchAll(/[A-Za-z]+/g)) {
        if (!wanted.has(m[0])) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`"${m[0]}" in "${text.trim().slice(0, 60)}" (${node.parentElement?.tagName.toLowerCase()})`);
      }
    }
    return out;
  }, TEAM_WORDS);
  return broken.map((b) => `${new URL(page.url()).pathname}: ${b}`);
}

test.describe("a phone 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no text cut off in cards and table cells, no team name broken mid-word @mobile-only", async ({ page, loginAs }) => {
    test.setTimeout(120_000);
    const { me, knockout, season, scout, matchDay } = await arrangeLongData();
    await loginAs({ email: me.email });
    // The compact tables (leaderboards, Registered Players) and the Scout boards end long names (and a long
    // picked team) on one line with an ellipsis (the full text is the title and is read whole): intended.
    const seasonEllipsis = ".lb-compact .lb-username, .lb-compact .lb-ellipsis, .lb-pinned-me .lb-username, .scout-board .lb-username";
    // Each page with a text it must show, so the checks never pass on an empty page.
    const pages: [path: string, shows: string | RegExp][] = [
      [`/competition/${knockout.id}`, me.username],
      [`/competition/${knockout.id}?tab=my-selections`, /Wolverhampton Wanderers/],
      [`/competition/${knockout.id}?tab=manage-selections`, `Players and their selection for Match Day ${matchDay}`],
      [`/competition/${season.id}`, me.username],
      [`/leaderboard/${knockout.id}`, "Tottenham Hotspur"],
      [`/season-leaderboard/${season.id}`, "1st"],
      [`/select-team/${knockout.id}`, "Wolverhampton Wanderers"],
      [`/select-team/${knockout.id}?md=${matchDay + 1}`, "Nottingham Forest"],
      [`/select-team/${season.id}`, "Joker"],
      [`/dashboard`, knockout.name],
      [`/my-competitions`, knockout.name],
      [`/scout?competition=${scout.id}`, "Wolverhampton Wanderers"],
      [`/scout?competition=${scout.id}&tab=leaderboard`, me.username],
      [`/scout?competition=${scout.id}&tab=leaderboard&view=season`, me.username],
      [`/scout?competition=${scout.id}&tab=my-picks`, "Nottingham Forest"],
    ];
    const clipped: Clipped[] = [];
    const broken: string[] = [];
    for (const [path, shows] of pages) {
      await open(page, path);
      await expect(page.getByText(shows).first(), path).toBeAttached();
      clipped.push(...(await clippedBoxes(page, seasonEllipsis)));
      broken.push(...(await brokenTeamWords(page)));
    }

    // Admin Results: the demo league's fixtures of the current match day (Tottenham Hotspur, Wolverhampton Wanderers).
    await loginAs("admin");
    const admin = `/admin/fixtures?league=Premier+League&season=2025%2F26&md=${matchDay}`;
    await open(page, admin);
    await expect(page.locator(".admin-team", { hasText: "Wolverhampton Wanderers" })).toBeVisible();
    clipped.push(...(await clippedBoxes(page, seasonEllipsis)));
    broken.push(...(await brokenTeamWords(page)));

    const report = clipped.map((c) => `${c.path}: ${c.element} "${c.text}" ${c.scrollWidth} > ${c.clientWidth}`);
    expect(report, `text cut off:\n${report.join("\n")}`).toEqual([]);
    expect(broken, `team names broken mid-word:\n${broken.join("\n")}`).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Items 1 and 9: axe on every page state, both viewports

/**
 * axe in the page itself (legacy mode: our pages have no frames, so the partial runs and the extra blank page of the
 * frame-aware mode only cost time), reporting violations only (passes and incomplete results are not collected).
 */
const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });

/** The serious and critical violations axe finds on the page, one readable line each (rule, targets). */
async function axeProblems(page: Page, state: string): Promise<string[]> {
  // Measure the hydrated page: the consent banner and the live countdowns appear only once its JavaScript has taken
  // over (app/root.tsx marks <html data-hydrated>), and an audit that starts before that reads a page still changing.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  // Measure the settled page: mid-way through an entrance animation (the consent banner slides and fades in)
  // colours are still blended with the background and axe would report contrast no one sees once it ends.
  // Finite animations only: an endless one (a pulsing urgent countdown) never finishes.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ),
  );
  const { violations } = await axe(page).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${state}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

/** Loads each state and collects axe's findings for all of them, so one run reports every page at once. */
async function auditStates(page: Page, states: [name: string, path: string, status?: number][]) {
  const problems: string[] = [];
  for (const [name, path, status] of states) {
    await open(page, path, status);
    problems.push(...(await axeProblems(page, `${name} (${path})`)));
  }
  return problems;
}

test("axe: public pages", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = await auditStates(page, [
    ["home", "/"],
    ["log in", "/login"],
    ["sign up", "/signup"],
    ["forgot password", "/forgot-password"],
    ["reset password without a token", "/reset-password"],
  ]);
  expect(problems, problems.join("\n")).toEqual([]);
});

test("axe: terms, privacy, the 404 page and profile setup", { tag: "@desktop-only" }, async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  const problems = await auditStates(page, [
    ["terms", "/terms"],
    ["privacy", "/privacy"],
    ["404", "/no-such-page", 404],
  ]);
  // Item 9: the static pages and the 404 page have one main landmark holding their content.
  for (const path of ["/terms", "/privacy", "/no-such-page"]) {
    await page.goto(path);
    await expect(page.getByRole("main"), path).toHaveCount(1);
    const { violations } = await axe(page).withRules(["landmark-one-main", "region"]).analyze();
    problems.push(...violations.map((v) => `${path}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`));
  }
  const account = await createAccount(db(), { password: E2E.password });
  await loginAs({ email: account.email });
  problems.push(...(await auditStates(page, [["profile setup", "/setup-profile"]])));
  expect(problems, problems.join("\n")).toEqual([]);
});

/**
 * The player pages' states, in groups of about six: axe takes 2 to 4 seconds a page on this machine, so one test
 * for all of them ran past its timeout whenever the other worker was busy. Groups run in parallel.
 */
type LongData = Awaited<ReturnType<typeof arrangeLongData>>;
const PLAYER_STATES: [group: string, states: (d: LongData) => [name: string, path: string][]][] = [
  [
    "lists and overview",
    ({ knockout }) => [
      ["dashboard", "/dashboard"],
      ["competitions", "/competitions"],
      ["create a private competition", "/competitions?create=1"],
      ["my competitions", "/my-competitions"],
      ["competition overview (its creator: Change rules)", `/competition/${knockout.id}`],
      ["competition details", `/competition/${knockout.id}?tab=details`],
      ["competition prizes", `/competition/${knockout.id}?tab=prizes`],
    ],
  ],
  [
    "competition tabs, team selection and leaderboards",
    ({ knockout, season, ...d }) => [
      ["my selections", `/competition/${knockout.id}?tab=my-selections`],
      ["manage selections", `/competition/${knockout.id}?tab=manage-selections`],
      ["unregister confirm", `/competition/${knockout.id}?confirm=unregister`],
      ["season competition", `/competition/${season.id}`],
      ["select team", `/select-team/${knockout.id}`],
      ["select team, a coming match day", `/select-team/${knockout.id}?md=${d.matchDay + 1}`],
      ["select team, season with the joker", `/select-team/${season.id}`],
      ["knockout leaderboard", `/leaderboard/${knockout.id}`],
      ["season leaderboard", `/season-leaderboard/${season.id}`],
    ],
  ],
  [
    "Scout and profile",
    ({ scout }) => [
      ["scout select", `/scout?competition=${scout.id}`],
      ["scout leaderboard", `/scout?competition=${scout.id}&tab=leaderboard`],
      ["scout season leaderboard", `/scout?competition=${scout.id}&tab=leaderboard&view=season`],
      ["scout my picks", `/scout?competition=${scout.id}&tab=my-picks`],
      ["scout rules", `/scout?competition=${scout.id}&tab=rules`],
      ["profile", "/profile"],
      ["your stats", "/stats"],
      ["ended competitions", "/competitions?status=ended"],
      ["what's new", "/whats-new"],
    ],
  ],
];

for (const [group, states] of PLAYER_STATES) {
  // On the phone only the first group: the states share their markup with the desktop audit, and the phone's own
  // layout is audited by the first group and the 390 px clipping test (decision 021).
  const tag = group === PLAYER_STATES[0][0] ? [] : ["@desktop-only"];
  test(`axe: player pages in their main states: ${group}`, { tag }, async ({ page, loginAs }) => {
    test.setTimeout(120_000);
    const data = await arrangeLongData();
    await loginAs({ email: data.me.email });
    const problems = await auditStates(page, states(data));
    expect(problems, problems.join("\n")).toEqual([]);
  });
}

// Issue 22 item 10: the dark theme follows the system setting; its colours must pass the same audit.
test("axe in dark mode: log in, dashboard, team selection, Scout, What's new", async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: "dark" });
  const problems = await auditStates(page, [["log in (dark)", "/login"]]);
  const data = await arrangeLongData();
  await loginAs({ email: data.me.email });
  // The theme really is dark (the tokens switched), so the audit below is of the dark colours.
  await open(page, "/dashboard");
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe("rgb(12, 20, 17)");
  problems.push(...(await axeProblems(page, "dashboard (dark)")));
  problems.push(
    ...(await auditStates(page, [
      ["select team (dark)", `/select-team/${data.knockout.id}`],
      ["scout (dark)", `/scout?competition=${data.scout.id}`],
      ["what's new (dark)", "/whats-new"],
    ])),
  );
  expect(problems, problems.join("\n")).toEqual([]);
});

test("axe: admin pages", { tag: "@desktop-only" }, async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  await loginAs("admin");
  const { matchDay } = await currentMatchDay();
  const [fixture] = await fixturesOf(matchDay);
  const problems = await auditStates(page, [
    ["admin results", `/admin/fixtures?league=Premier+League&season=2025%2F26&md=${matchDay}`],
    ["admin results, one fixture in edit", `/admin/fixtures?league=Premier+League&season=2025%2F26&md=${matchDay}&edit=${fixture.id}`],
    ["admin create competition", "/admin/competitions"],
    ["admin csv upload", "/admin/upload"],
    ["admin release notes", "/admin/release-notes"],
  ]);
  expect(problems, problems.join("\n")).toEqual([]);
});
