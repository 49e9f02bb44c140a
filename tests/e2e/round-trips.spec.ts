/**
 * Database round trips per request, counted by the latency proxy (scripts/latency-proxy.ts) that the e2e
 * global setup puts between wrangler's local Hyperdrive and the database (no added delay; counters at
 * E2E_RTT_URL). In production the Worker runs at the edge and the database is 50-150 ms away, so each round
 * trip is paid in full on every request (issue "Edge performance: one database round trip per page").
 *
 * What is counted: a round trip is a burst of client->server bytes after which the client waits for the
 * server (see the proxy's header for the exact rule). Wrangler's local Hyperdrive opens a new database
 * connection for every connection the Worker makes, and the Worker makes one per request, so each count
 * below includes that connection's start-up round trip (StartupMessage -> ReadyForQuery); production
 * Hyperdrive answers start-up at the edge from its pool. The test prints both parts.
 *
 * Each request is measured 3 times and must give the same count every time. Other spec files may run at the
 * same time against the same database: only connections whose client bytes carry this player's session id
 * or user id are counted.
 */
import { db, expect, newPlayer, test } from "./fixtures";
import { arrangeCompetition, fixturesOf, userId } from "./arrange";
import { addPick, giveReferralTickets } from "../support/factories";
import { countersClient, type Snapshot } from "../../scripts/latency-proxy";

/**
 * Maximum database round trips per request, start-up included (never raise these). Since decision 012 a page
 * view is: 1 start-up round trip (a new connection; production Hyperdrive answers it at the edge), 1 for
 * BEGIN, the clock, the session check and the page's reads together, and the COMMIT, which travels after the
 * answer. A write is the session check and the write in one message, then the COMMIT awaited before the
 * redirect (before issue 19 the competition page read once more after the check, and a write waited for the
 * check before sending itself: 4 each). Saving a pick sends its COMMIT in that same message (decision 024: the
 * competition lock it takes is no longer held across a round trip to the Worker): 2.
 * Before decision 012: dashboard 13, competitions 11, my-competitions 11, competition 25, select-team 17,
 * leaderboard 13, season leaderboard 15, scout 3, profile 9, join 9, save a pick 9.
 */
const BUDGET: Record<string, number> = {
  "GET /dashboard": 3,
  "GET /competitions": 3,
  "GET /my-competitions": 3,
  "GET /competition/{id}": 3,
  "GET /select-team/{id}": 3,
  "GET /select-team/{id}, 10 planned match days": 3,
  "GET /leaderboard/{id}": 3,
  "GET /season-leaderboard/{id}": 3,
  "GET /scout": 3,
  "GET /profile": 3,
  // The data download (decision 029): the session check and public.my_data() in the same message.
  "GET /profile/data": 3,
  "GET /stats": 3,
  "POST join a competition": 3,
  "POST save a pick": 2,
  "POST redeem a Scout ticket": 3,
  "POST save a Scout prediction": 3,
};

const RUNS = 3;

test("database round trips per request stay within budget and do not vary", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const rttUrl = process.env.E2E_RTT_URL;
  if (!rttUrl) throw new Error("E2E_RTT_URL is not set: tests/e2e/global-setup.ts starts the latency proxy");
  const counters = countersClient(rttUrl);

  // A player of our own: its session id and user id mark its requests' connections.
  const { username } = await newPlayer(page);
  const uid = await userId(username);
  const sessions = await db()<{ id: string }[]>`select id from account.sessions where user_id = ${uid}`;
  const cookie = (await page.context().cookies()).find((c) => c.name === "fc_session");
  expect(cookie, "signed in").toBeTruthy();
  const markers = [uid, ...sessions.map((s) => s.id)];

  const knockout = await arrangeCompetition({ namePrefix: "RTT KO ", members: [uid] });
  // Team Selection with the player's plans for the next 10 match days (decision 028), a different team on each.
  const planned = await arrangeCompetition({ namePrefix: "RTT Plans ", members: [uid] });
  const plannedTeams = new Set<string>();
  for (let md = planned.matchDay + 1; md <= planned.matchDay + 10; md++) {
    const team = (await fixturesOf(md)).flatMap((f) => [f.home_team, f.away_team]).find((t) => !plannedTeams.has(t))!;
    plannedTeams.add(team);
    await addPick(db(), { userId: uid, competitionId: planned.id, matchDay: md, team });
  }
  const season = await arrangeCompetition({ namePrefix: "RTT Season ", type: "season", members: [uid] });
  const toJoin = await Promise.all(Array.from({ length: RUNS }, () => arrangeCompetition({ namePrefix: "RTT Join " })));
  const teams = (await fixturesOf(knockout.matchDay)).flatMap((f) => [f.home_team, f.away_team]).slice(0, RUNS);
  expect(teams).toHaveLength(RUNS);
  // A Scout competition on the demo league's current match day; a referral ticket per redeem run (the
  // FootyCoach ticket covers one more).
  const scout = await arrangeCompetition({ namePrefix: "RTT Scout ", type: "scout" });
  await giveReferralTickets(db(), uid, RUNS);
  const scoutFixture = (await fixturesOf(scout.matchDay))[0];

  const headers = { Cookie: `fc_session=${cookie!.value}`, Origin: baseURL! };
  const get = (path: string) => async () => {
    const res = await fetch(baseURL + path, { headers, redirect: "manual" });
    await res.arrayBuffer();
    expect(res.status, `GET ${path}`).toBe(200);
  };
  const post = (path: string, form: Record<string, string>, expectLocation: RegExp) => async () => {
    const res = await fetch(baseURL + path, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
    });
    await res.arrayBuffer();
    expect(res.status, `POST ${path}`).toBe(302);
    expect(res.headers.get("location") ?? "", `POST ${path} redirects`).toMatch(expectLocation);
  };

  const requests: [string, (run: number) => () => Promise<void>][] = [
    ["GET /dashboard", () => get("/dashboard")],
    ["GET /competitions", () => get("/competitions")],
    ["GET /my-competitions", () => get("/my-competitions")],
    ["GET /competition/{id}", () => get(`/competition/${knockout.id}`)],
    ["GET /select-team/{id}", () => get(`/select-team/${knockout.id}`)],
    ["GET /select-team/{id}, 10 planned match days", () => get(`/select-team/${planned.id}?md=${planned.matchDay + 10}`)],
    ["GET /leaderboard/{id}", () => get(`/leaderboard/${knockout.id}`)],
    ["GET /season-leaderboard/{id}", () => get(`/season-leaderboard/${season.id}`)],
    ["GET /scout", () => get("/scout")],
    ["GET /profile", () => get("/profile")],
    ["GET /profile/data", () => get("/profile/data")],
    ["GET /stats", () => get("/stats")],
    [
      "POST join a competition",
      (run) => post("/competitions", { intent: "join", competitionId: toJoin[run].id, redirectTo: "/competitions" }, /^\/competitions$/),
    ],
    [
      "POST save a pick",
      (run) => post(`/select-team/${knockout.id}`, { intent: "select", team: teams[run] }, new RegExp(`^/select-team/${knockout.id}$`)),
    ],
    ["POST redeem a Scout ticket", () => post("/scout", { intent: "redeem", competitionId: scout.id }, /^\/scout\?/)],
    [
      "POST save a Scout prediction",
      (run) => async () => {
        const [entry] = await db()<{ id: string }[]>`
          select id::text from public.scout_entries where user_id = ${uid} and competition_id = ${scout.id} order by entry_index limit 1`;
        await post(
          "/scout",
          {
            intent: "save-predictions",
            competitionId: scout.id,
            entryId: entry.id,
            fixture: scoutFixture.id,
            [`home.${scoutFixture.id}`]: String(run),
            [`away.${scoutFixture.id}`]: "1",
          },
          /^\/scout\?/,
        )();
      },
    ],
  ];

  const measured: { request: string; runs: Snapshot[] }[] = [];
  for (const [name, make] of requests) {
    const runs: Snapshot[] = [];
    for (let run = 0; run < RUNS; run++) {
      await counters.reset();
      await make(run)();
      // A read's COMMIT goes out after the answer (waitUntil): wait until the connection has been quiet a while.
      runs.push(await counters.snapshot({ markers, settleMs: 300 }));
    }
    measured.push({ request: name, runs });
  }

  // The plans page lists every plan (its coming match days), so the count above is of a page with all ten.
  const plansPage = await (await fetch(`${baseURL}/select-team/${planned.id}?md=${planned.matchDay + 10}`, { headers })).text();
  for (const team of plannedTeams) expect(plansPage, team).toContain(team.replace(/&/g, "&amp;"));

  // The joins and picks really happened.
  const joined =
    await db()`select 1 from public.user_selections where user_id = ${uid} and competition_id in ${db()(toJoin.map((c) => c.id))}`;
  expect(joined).toHaveLength(RUNS);
  const [pick] = await db()`select selected_team from public.team_selections where user_id = ${uid} and competition_id = ${knockout.id}`;
  expect(pick.selected_team).toBe(teams[RUNS - 1]);
  const entries = await db()`select 1 from public.scout_entries where user_id = ${uid} and competition_id = ${scout.id}`;
  expect(entries).toHaveLength(RUNS);
  const [prediction] = await db()`
    select p.home_goals from public.scout_predictions p join public.scout_entries e on e.id = p.scout_entry_id
     where e.user_id = ${uid} and e.competition_id = ${scout.id} and p.fixture_id = ${scoutFixture.id}`;
  expect(prediction.home_goals).toBe(RUNS - 1);

  const line = (r: Snapshot) =>
    `${r.roundTrips} = ${r.startupRoundTrips} start-up + ${r.queryRoundTrips} query (${r.connections} conn, ${r.statements} stmts, ${r.flushes} describe-first)`;
  console.log(
    "\nround trips per request (3 runs):\n" +
      measured
        .map((m) => `  ${m.request.padEnd(46)} budget ${String(BUDGET[m.request]).padStart(2)}   ${m.runs.map(line).join("  |  ")}`)
        .join("\n"),
  );

  for (const m of measured) {
    const counts = m.runs.map((r) => r.roundTrips);
    expect(
      m.runs.every((r) => r.connections >= 1),
      `${m.request}: a connection of this player was seen`,
    ).toBe(true);
    // When the counts differ, the connections of each run and what they sent say why.
    const detail = m.runs
      .map((r, i) => `run ${i}: ` + r.perConnection.map((c) => `[${c.roundTrips} round trips: ${c.sample ?? ""}]`).join(" "))
      .join("\n");
    expect(new Set(counts).size, `${m.request}: the same count every run (${counts.join(", ")})\n${detail}`).toBe(1);
    expect(new Set(m.runs.map((r) => r.startupRoundTrips)).size, `${m.request}: the same start-up count every run`).toBe(1);
    expect(counts[0], `${m.request}: round trips within budget`).toBeLessThanOrEqual(BUDGET[m.request]);
  }
});
