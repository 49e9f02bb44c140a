/**
 * The organiser's rules in the one match-day processing (rules file "The organiser's rules"; decision 028), as a
 * table over EVERY combination: knockout lives 1/2/3 x draws x missed pick x everyone out (24 competitions), season
 * points x joker (6). The same three match days are played in two leagues: in one the results are entered and then
 * two of them corrected (through the admin API, after every match day was processed), in the other the corrected
 * results are entered first. Every competition must end the same way in both, and as the rules file's reference
 * model (rules-oracle.ts) says: lives, eliminations, life losses, auto-picks, winners, season points with jokers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPick } from "../support/factories";
import { useTestDatabase } from "../support/pg";
import { kickoff, SEASON, World, type TestDb } from "./results-support";
import {
  playKnockout,
  seasonPoints,
  type KnockoutRules,
  type OracleFixture,
  type Picks,
  type Score,
  type SeasonRules,
} from "./rules-oracle";

let db: TestDb;
let w: World;

const NAMES = ["Amy", "Bob", "Cat", "Dan", "Eve"];
// Plans for every match day made up front (Dan never picks; Eve misses match day 3).
const PICKS: Picks = {
  Amy: { 1: "T1", 2: "T3", 3: "T5" },
  Bob: { 1: "T3", 2: "T6", 3: "T8" },
  Cat: { 1: "T6", 2: "T7", 3: "T1" },
  Eve: { 1: "T8", 2: "T2" },
};
const JOKERS: Record<string, number> = { Amy: 1, Bob: 2, Eve: 2 };

type Results = Record<number, Record<string, Score>>; // match day -> home team -> score
const FIRST: Results = {
  1: { T1: [2, 0], T3: [1, 1], T5: [1, 0], T7: [3, 0] },
  2: { T1: [0, 0], T3: [2, 1], T5: [0, 2], T7: [1, 1] },
  3: { T1: [1, 0], T3: [0, 0], T5: [3, 1], T7: [0, 1] },
};
// The corrections: match day 1's T1-T2 (Amy's win, and the table every later auto-pick reads) and match day 2's
// T3-T4 (Amy's win again, and match day 3's table).
const CORRECTIONS: [number, string, Score][] = [
  [1, "T1", [0, 1]],
  [2, "T3", [1, 2]],
];
const CORRECTED: Results = structuredClone<Results>(FIRST);
for (const [md, home, score] of CORRECTIONS) CORRECTED[md][home] = score;

const KNOCKOUT_RULES: KnockoutRules[] = [1, 2, 3].flatMap((lives) =>
  (["costs-life", "through"] as const).flatMap((draws) =>
    (["costs-life", "auto"] as const).flatMap((missedPick) =>
      (["rollover", "joint"] as const).map((everyoneOut) => ({ lives, draws, missedPick, everyoneOut })),
    ),
  ),
);
const SEASON_RULES: SeasonRules[] = [
  [3, 1, 0],
  [5, 2, 1],
  [2, 1, 1],
].flatMap(([win, draw, loss]) => [false, true].map((joker) => ({ win, draw, loss, joker })));

const label = (r: KnockoutRules) => `lives ${r.lives}, draws ${r.draws}, missed pick ${r.missedPick}, everyone out ${r.everyoneOut}`;
const seasonLabel = (r: SeasonRules) => `points ${r.win}/${r.draw}/${r.loss}, joker ${r.joker ? "on" : "off"}`;

interface Played {
  league: string;
  knockouts: string[];
  seasons: string[];
}
const played: Record<"corrected" | "first", Played> = {} as never;

async function setUp(): Promise<Played> {
  const league = await w.league(3);
  const knockouts: string[] = [];
  for (const r of KNOCKOUT_RULES) {
    const columns = { lives: r.lives, draw_rule: r.draws, missed_pick_rule: r.missedPick, everyone_out_rule: r.everyoneOut };
    knockouts.push(await w.competition(league, "knockout", NAMES, columns));
  }
  const seasons: string[] = [];
  for (const r of SEASON_RULES) {
    const columns = { win_points: r.win, draw_points: r.draw, loss_points: r.loss, joker: r.joker };
    seasons.push(await w.competition(league, "season", NAMES, columns));
  }
  for (const id of [...knockouts, ...seasons]) {
    for (const [name, mds] of Object.entries(PICKS)) {
      for (const [md, team] of Object.entries(mds))
        await addPick(db.sql, { userId: w.ids[name], competitionId: id, matchDay: Number(md), team });
    }
  }
  // Jokers in every season competition: they count only where the organiser turned the joker on.
  for (const id of seasons) {
    for (const [name, md] of Object.entries(JOKERS)) {
      await db.sql`insert into public.season_jokers (user_id, competition_id, match_day) values (${w.ids[name]}, ${id}, ${md})`;
    }
  }
  return { league, knockouts, seasons };
}

async function play(league: string, results: Results) {
  for (const md of [1, 2, 3])
    for (const [home, s] of Object.entries(results[md])) await w.score(league, md, home, ...(s as [number, number]));
}

function oracleFixtures(results: Results): OracleFixture[] {
  return [1, 2, 3].flatMap((md) =>
    ["T1", "T3", "T5", "T7"].map((home, i) => ({
      matchDay: md,
      home,
      away: `T${Number(home.slice(1)) + 1}`,
      kickoff: new Date(kickoff(md).getTime() + i * 3_600_000),
      score: results[md][home],
    })),
  );
}

/** What processing left of a knockout, in the oracle's words. */
async function knockoutState(id: string) {
  const members = await db.sql<{ name: string; status: string; knocked_out_on: number | null; lives_lost: number }[]>`
    select pn.username as name, us.status, us.knocked_out_on, public.lives_lost(us.competition_id, us.user_id) as lives_lost
      from public.user_selections us join public.player_names pn on pn.id = us.user_id
     where us.competition_id = ${id}`;
  const autos = await db.sql<{ s: string }[]>`
    select pn.username || '@' || ts.match_day || '=' || ts.selected_team as s
      from public.team_selections ts join public.player_names pn on pn.id = ts.user_id
     where ts.competition_id = ${id} and ts.auto_picked order by 1`;
  const losses = await db.sql<{ s: string }[]>`
    select pn.username || '@' || l.match_day || ':' || l.outcome as s
      from public.knockout_life_losses l join public.player_names pn on pn.id = l.user_id
     where l.competition_id = ${id} order by 1`;
  const [c] = await db.sql<{ status: "active" | "inactive"; winner: string | null; current_match_day: number }[]>`
    select c.status, pn.username as winner, c.current_match_day
      from public.competitions c left join public.player_names pn on pn.id = c.knockout_winner where c.id = ${id}`;
  return {
    members: Object.fromEntries(
      members.map((m) => [m.name, `${m.status === "eliminated" ? `eliminated@${m.knocked_out_on}` : m.status}|lost=${m.lives_lost}`]),
    ),
    autoPicks: autos.map((a) => a.s).sort(),
    lifeLosses: losses.map((l) => l.s).sort(),
    status: c.status,
    winner: c.winner,
    currentMatchDay: c.current_match_day,
  };
}

async function seasonState(id: string): Promise<Record<string, number>> {
  const rows = await db.sql<{ name: string; points: number }[]>`
    select pn.username as name, us.points
      from public.user_selections us join public.player_names pn on pn.id = us.user_id where us.competition_id = ${id}`;
  return Object.fromEntries(rows.map((r) => [r.name, r.points]));
}

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of NAMES) await w.player(name);
  // One league plays the results and then corrects two of them; the other has the corrected results from the start.
  played.corrected = await setUp();
  await play(played.corrected.league, FIRST);
  for (const [md, home, [hs, as]] of CORRECTIONS as [number, string, [number, number]][]) {
    expect(await w.score(played.corrected.league, md, home, hs, as, "Wrong score entered")).toBe("saved");
  }
  played.first = await setUp();
  await play(played.first.league, CORRECTED);
}, 240_000);

afterAll(async () => {
  await db?.close();
});

describe("knockout: every combination of lives, draws, missed pick and everyone out", () => {
  KNOCKOUT_RULES.forEach((rules, i) => {
    it(label(rules), async () => {
      const expected = playKnockout(rules, NAMES, PICKS, oracleFixtures(CORRECTED), 3);
      const corrected = await knockoutState(played.corrected.knockouts[i]);
      expect(await knockoutState(played.first.knockouts[i])).toEqual(expected);
      // the correction re-processed lives, auto-picks and the end exactly as if it had come first
      expect(corrected).toEqual(expected);
    });
  });

  it("the table is not trivial: the rules change the outcome, and the corrections changed what the first results gave", () => {
    const fixtures = oracleFixtures(CORRECTED);
    const outcomes = new Set(KNOCKOUT_RULES.map((r) => JSON.stringify(playKnockout(r, NAMES, PICKS, fixtures, 3))));
    expect(outcomes.size).toBeGreaterThanOrEqual(10);
    const before = KNOCKOUT_RULES.map((r) => JSON.stringify(playKnockout(r, NAMES, PICKS, oracleFixtures(FIRST), 3)));
    const after = KNOCKOUT_RULES.map((r) => JSON.stringify(playKnockout(r, NAMES, PICKS, fixtures, 3)));
    expect(before.filter((b, i) => b !== after[i]).length).toBeGreaterThanOrEqual(12);
  });
});

describe("season: every combination of points and the joker", () => {
  SEASON_RULES.forEach((rules, i) => {
    it(seasonLabel(rules), async () => {
      const expected = seasonPoints(rules, NAMES, PICKS, JOKERS, oracleFixtures(CORRECTED));
      expect(await seasonState(played.first.seasons[i])).toEqual(expected);
      // the correction of Amy's joker match day counts double (or not), as if it had come first
      expect(await seasonState(played.corrected.seasons[i])).toEqual(expected);
    });
  });
});

describe("the league used above", () => {
  it("is one season of one league", async () => {
    const [{ n }] = await db.sql<{ n: number }[]>`
      select count(distinct season)::int as n from public.fixtures where league = ${played.first.league}`;
    expect(n).toBe(1);
    expect(SEASON).toBe("2025/26");
  });
});
