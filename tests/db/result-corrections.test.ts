/**
 * Corrections (rules file: "Fixtures and results from a data feed"): re-processing after a correction ends in the
 * same state as if the corrected result had been the first, for knockout, season and Scout. Each case is played
 * twice on two leagues with the same players and picks: once with the first result and then the correction, once
 * with the corrected result from the start; the two end states must be equal. The correction also tells exactly
 * the players whose outcome changed, once each.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompetition } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";
import { BASE, HOMES, SEASON, World, type TestDb } from "./results-support";

let db: TestDb;
let w: World;

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan"]) await w.player(name);
});

afterAll(async () => {
  await db?.close();
});

type Home = (typeof HOMES)[number];
type Score = [number, number] | "P";

interface Case {
  name: string;
  type: "knockout" | "season";
  members: string[];
  totalMatchDays?: number;
  /** [player, match day, team] */
  picks: [string, number, string][];
  /** The match days played before the correction: scores by home team (every other fixture 1-0 to the home side). */
  played: Record<number, Partial<Record<Home, Score>>>;
  correction: { matchDay: number; home: Home; to: Score };
  /** The players whose outcome the correction changed: one notice each, nobody else. */
  told: Record<string, string>;
}

const cases: Case[] = [
  {
    name: "knockout: a loss corrected to a win brings its picker back and puts the other side's out",
    type: "knockout",
    members: ["Amy", "bob", "Cat"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T2"],
      ["Cat", 1, "T3"],
    ],
    played: { 1: { T1: [2, 0] } },
    correction: { matchDay: 1, home: "T1", to: [0, 2] },
    told: { Amy: "eliminated on Match Day 1 (was still in)", bob: "still in (was eliminated on Match Day 1)" },
  },
  {
    name: "knockout: a correction that would put everyone out rolls over (nobody goes)",
    type: "knockout",
    members: ["Amy", "bob"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T3"],
    ],
    played: { 1: { T1: [0, 1], T3: [1, 0] } },
    correction: { matchDay: 1, home: "T3", to: [0, 1] },
    // bob was the last one standing (a winner); now both are still in
    told: { Amy: "still in (was eliminated on Match Day 1)", bob: "still in (was a winner)" },
  },
  {
    name: "knockout: a correction of match day 1 re-derives match day 2",
    type: "knockout",
    members: ["Amy", "bob", "Cat"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T3"],
      ["Cat", 1, "T5"],
      ["Amy", 2, "T7"],
      ["bob", 2, "T4"],
    ],
    played: { 1: { T5: [0, 1] }, 2: {} },
    correction: { matchDay: 1, home: "T5", to: [1, 0] },
    told: { Cat: "eliminated on Match Day 2 (was eliminated on Match Day 1)" },
  },
  {
    name: "knockout: a winner's win corrected away re-opens the competition",
    type: "knockout",
    members: ["Amy", "bob"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T3"],
    ],
    played: { 1: { T3: [0, 1] } },
    correction: { matchDay: 1, home: "T3", to: [1, 0] },
    told: { Amy: "still in (was a winner)", bob: "still in (was eliminated on Match Day 1)" },
  },
  {
    name: "knockout: a result corrected to postponed saves its picker",
    type: "knockout",
    members: ["Amy", "bob", "Cat"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T3"],
      ["Cat", 1, "T5"],
    ],
    played: { 1: { T1: [0, 1] } },
    correction: { matchDay: 1, home: "T1", to: "P" },
    told: { Amy: "still in (was eliminated on Match Day 1)" },
  },
  {
    name: "season: a win corrected to a draw moves both pickers' points",
    type: "season",
    members: ["Amy", "bob", "Cat"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T2"],
      ["Cat", 1, "T3"],
    ],
    played: { 1: { T1: [2, 0] } },
    correction: { matchDay: 1, home: "T1", to: [1, 1] },
    told: { Amy: "1 point (was 3)", bob: "1 point (was 0)" },
  },
  {
    name: "season: a corrected score with the same result moves only the goals",
    type: "season",
    members: ["Amy", "bob", "Cat"],
    picks: [
      ["Amy", 1, "T1"],
      ["bob", 1, "T2"],
      ["Cat", 1, "T3"],
    ],
    played: { 1: { T1: [2, 0] }, 2: {} },
    correction: { matchDay: 1, home: "T1", to: [3, 0] },
    told: { Amy: "goals 3-0 (was 2-0)", bob: "goals 0-3 (was 0-2)" },
  },
];

/** Everything a player or page can see of a competition's outcome, by player name. */
async function outcome(competitionId: string) {
  const members = await db.sql<Record<string, unknown>[]>`
    select p.username, us.status, us.knocked_out_on, us.wins, us.draws, us.losses, us.goals_for, us.goals_against,
           us.points, r.rank
      from public.user_selections us
      join public.player_names p on p.id = us.user_id
      left join public.membership_ranks r on r.competition_id = us.competition_id and r.user_id = us.user_id
     where us.competition_id = ${competitionId} order by lower(p.username)`;
  const [competition] = await db.sql`
    select c.status, c.registration_status, c.current_match_day, w.username as winner
      from public.competitions c left join public.player_names w on w.id = c.knockout_winner
     where c.id = ${competitionId}`;
  const processed = await db.sql`
    select match_day, still_in, eliminated, rolled_over from public.competition_matchday_results
     where competition_id = ${competitionId} order by match_day`;
  return { members, competition, processed };
}

async function play(league: string, c: Case, scoreOf: (md: number, home: Home) => Score) {
  for (const md of Object.keys(c.played).map(Number)) {
    for (const home of HOMES) {
      const s = scoreOf(md, home);
      if (s === "P") await w.postpone(league, md, home);
      else await w.score(league, md, home, s[0], s[1]);
    }
  }
}

async function arrange(c: Case) {
  const league = await w.league(3);
  const competition = await w.competition(league, c.type, c.members, { total_match_days: c.totalMatchDays ?? 3 });
  for (const [name, md, team] of c.picks) await w.pick(competition, name, md, team);
  return { league, competition };
}

describe("a correction ends where the corrected result as the first would have (table)", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const played = (md: number, home: Home): Score => c.played[md]?.[home] ?? [1, 0];
      const corrected = (md: number, home: Home): Score =>
        md === c.correction.matchDay && home === c.correction.home ? c.correction.to : played(md, home);

      const first = await arrange(c);
      await play(first.league, c, played);
      const before = await outcome(first.competition);
      const to = c.correction.to;
      if (to === "P") await w.postpone(first.league, c.correction.matchDay, c.correction.home, true, "Abandoned: floodlight failure");
      else await w.score(first.league, c.correction.matchDay, c.correction.home, to[0], to[1], "Wrong score typed");

      const direct = await arrange(c);
      await play(direct.league, c, corrected);

      const after = await outcome(first.competition);
      expect(after).toEqual(await outcome(direct.competition));
      expect(after).not.toEqual(before);

      // one notice per player whose outcome changed, naming the match, the scores and what changed for them
      const fixtureId = await w.fixtureId(first.league, c.correction.matchDay, c.correction.home);
      const notices = await db.sql<{ username: string; body: string }[]>`
        select p.username, n.body from public.notices n join public.player_names p on p.id = n.user_id
         where (n.params ->> 'fixture_id')::bigint = ${fixtureId} order by lower(p.username)`;
      const [f] = await db.sql<
        { home_team: string; away_team: string }[]
      >`select home_team, away_team from public.fixtures where id = ${fixtureId}`;
      const was = played(c.correction.matchDay, c.correction.home) as [number, number];
      const now = to === "P" ? "postponed" : `${to[0]}-${to[1]}`;
      const headline = `Result corrected: ${f.home_team} v ${f.away_team} (${first.league} ${SEASON}, Match Day ${c.correction.matchDay}) is now ${now} (was ${was[0]}-${was[1]}).`;
      const [{ name }] = await db.sql<{ name: string }[]>`select name from public.competitions where id = ${first.competition}`;
      expect(notices).toEqual(
        Object.entries(c.told)
          .sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()))
          .map(([username, change]) => ({ username, body: `${headline} ${name}: ${change}.` })),
      );
      const [history] = await db.sql`
        select source, changed_by, old_status, new_status, reason, is_correction, notices from public.fixture_result_changes
         where fixture_id = ${fixtureId} order by id desc limit 1`;
      expect(history).toEqual({
        source: "admin",
        changed_by: w.admin,
        old_status: "complete",
        new_status: to === "P" ? "postponed" : "complete",
        reason: to === "P" ? "Abandoned: floodlight failure" : "Wrong score typed",
        is_correction: true,
        notices: Object.keys(c.told).length,
      });
    });
  }
});

describe("Scout", () => {
  const OPEN = new Date(BASE.getTime() - 3 * 3_600_000);

  async function scoutWorld(league: string) {
    const { id } = await createCompetition(db.sql, {
      type: "scout",
      league,
      season: SEASON,
      startDate: "2026-07-01",
      registrationStatus: "closed",
    });
    const fixtureId = await w.fixtureId(league, 1, "T1");
    // Amy: 2-0 exactly; bob: 1-0 (result and one side); Cat: 0-2 (nothing); dan: 3-1 (result only)
    const predictions: Record<string, [number, number]> = { Amy: [2, 0], bob: [1, 0], Cat: [0, 2], dan: [3, 1] };
    for (const [name, [h, a]] of Object.entries(predictions)) {
      await asUser(db.sql, w.ids[name], (tx) => tx`select public.redeem_ticket_for_entry(${w.ids[name]}, ${id}, null)`, { now: OPEN });
      const [entry] = await db.sql<
        { id: string }[]
      >`select id from public.scout_entries where user_id = ${w.ids[name]} and competition_id = ${id}`;
      await asUser(
        db.sql,
        w.ids[name],
        (tx) =>
          tx`select public.save_scout_predictions(${entry.id}, ${tx.json([{ fixture_id: fixtureId, home_goals: h, away_goals: a }] as postgres.JSONValue)})`,
        { now: OPEN },
      );
    }
    return { competition: id, fixtureId };
  }

  const scout = (competitionId: string, league: string) =>
    db.sql<Record<string, unknown>[]>`
      select p.username, e.total_points, e.exact_count, q.points_awarded, q.exact, s.total_points as season_points, s.exact_count as season_exact
        from public.scout_entries e
        join public.player_names p on p.id = e.user_id
        join public.scout_predictions q on q.scout_entry_id = e.id
        left join public.scout_season_totals s on s.user_id = e.user_id and s.league = ${league} and s.season = ${SEASON}
       where e.competition_id = ${competitionId} order by lower(p.username)`;

  it("a corrected result re-scores every prediction as if it had been the first, and tells whose points moved", async () => {
    const first = await w.league(1);
    const a = await scoutWorld(first);
    await w.score(first, 1, "T1", 2, 0);
    const before = await scout(a.competition, first);
    await w.score(first, 1, "T1", 1, 0, "Own goal given to the wrong side");

    const direct = await w.league(1);
    const b = await scoutWorld(direct);
    await w.score(direct, 1, "T1", 1, 0);

    const after = await scout(a.competition, first);
    expect(after).toEqual(await scout(b.competition, direct));
    expect(after).not.toEqual(before);
    expect(after.map((r) => [r.username, r.points_awarded])).toEqual([
      ["Amy", 3],
      ["bob", 5],
      ["Cat", 0],
      ["dan", 1],
    ]);

    const notices = await db.sql<{ username: string; body: string }[]>`
      select p.username, n.body from public.notices n join public.player_names p on p.id = n.user_id
       where (n.params ->> 'fixture_id')::bigint = ${a.fixtureId} order by lower(p.username)`;
    // Cat (0 before and after) and dan (result only, 1 before and after) are not told
    expect(notices.map((n) => [n.username, n.body.replace(/^.*\) is now /, "")])).toEqual([
      ["Amy", "1-0 (was 2-0). Scout: your predictions of this match score 3 points (was 5)."],
      ["bob", "1-0 (was 2-0). Scout: your predictions of this match score 5 points (was 3)."],
    ]);
  });
});

describe("the rules of a correction", () => {
  it("refuses a correction without a reason, with the spec's message, and changes nothing", async () => {
    const league = await w.league(1);
    await w.score(league, 1, "T1", 2, 0);
    const id = await w.fixtureId(league, 1, "T1");
    for (const reason of [null, "", "   "]) {
      await expect(w.asAdmin((tx) => tx`select public.save_fixture_result(${id}, 0, 0, ${reason})`)).rejects.toMatchObject({
        code: "P0001",
        message: "A reason is required to correct a result.",
      });
      await expect(w.asAdmin((tx) => tx`select public.set_fixture_postponed(${id}, true, ${reason})`)).rejects.toMatchObject({
        message: "A reason is required to correct a result.",
      });
    }
    const [f] = await db.sql`select status, home_score, away_score from public.fixtures where id = ${id}`;
    expect(f).toEqual({ status: "complete", home_score: 2, away_score: 0 });
    // the same score again is no correction: no reason needed, nothing kept
    expect(await w.score(league, 1, "T1", 2, 0, "")).toBe("saved");
    const history = await db.sql`select source, is_correction from public.fixture_result_changes where fixture_id = ${id}`;
    expect(history).toEqual([{ source: "admin", is_correction: false }]);
  });

  it("keeps CSV changes in the history under their own source", async () => {
    const league = await w.league(1);
    const rows = [
      {
        line: 2,
        league,
        season: SEASON,
        match_day: "1",
        home_team: "T1",
        away_team: "T2",
        kickoff_time: BASE.toISOString(),
        status: "complete",
        home_score: "1",
        away_score: "1",
      },
    ];
    await w.asAdmin((tx) => tx`select public.upsert_fixtures(${tx.json(rows as never)})`);
    const id = await w.fixtureId(league, 1, "T1");
    const [row] =
      await db.sql`select source, changed_by, new_home_score, is_correction from public.fixture_result_changes where fixture_id = ${id}`;
    expect(row).toEqual({ source: "csv", changed_by: w.admin, new_home_score: 1, is_correction: false });
    const [f] = await db.sql`select result_source from public.fixtures where id = ${id}`;
    expect(f.result_source).toBe("csv");
  });

  it("lets only admins read the history", async () => {
    const rows = await asUser(db.sql, w.ids.Amy, (tx) => tx`select count(*)::int as n from public.fixture_result_changes`);
    expect(rows[0].n).toBe(0);
    const seen = await w.asAdmin((tx) => tx<{ n: number }[]>`select count(*)::int as n from public.fixture_result_changes`);
    expect(seen[0].n).toBeGreaterThan(0);
  });
});
