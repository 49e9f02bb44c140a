/**
 * History and seasons (decision 030), part 1: a player's stats (public.player_stats, player_season_records,
 * player_top_teams) from real match-day processing, where members finished (public.final_position), and the archive
 * of ended competitions (public.ended_competitions, in_archive, revealed_picks and the archived-picks policy):
 * public ones for everyone, private ones only for their members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createCompetition, createLeague } from "../support/factories";
import { asUser } from "../support/pg";
import { SEASON, World, type TestDb } from "./results-support";
import { useTestDatabase } from "../support/pg";

let db: TestDb;
let w: World;
const c = {} as Record<"k1" | "s1" | "old" | "active" | "privateIn" | "privateOut", string>;

/** Results of one match day of a league whose fixtures' kickoffs have passed, as the admin (processing follows). */
async function play(league: string, season: string, matchDay: number, scores: Record<string, [number, number]>) {
  const fixtures = await db.sql<{ id: string; home_team: string }[]>`
    select id, home_team from public.fixtures where league = ${league} and season = ${season} and match_day = ${matchDay}
     order by kickoff_time`;
  for (const f of fixtures) {
    const [h, a] = scores[f.home_team] ?? [1, 0];
    await w.asAdmin((tx) => tx`select public.save_fixture_result(${f.id}, ${h}, ${a}, 'history test')`);
  }
}

const as = <T extends object[]>(name: string, query: string) => asUser(db.sql, w.ids[name], (tx) => tx.unsafe<T>(query));

beforeAll(async () => {
  db = await useTestDatabase();
  w = new World(db);
  await w.player("Boss", "admin");
  for (const name of ["Amy", "bob", "Cat", "dan"]) await w.player(name);

  // K1 (public knockout): Cat out on match day 1, bob on 2; Amy wins on match day 2.
  // S1 (season) on the same league: bob 9 points, Amy 3 (a win, two losses).
  const league = await w.league(3);
  c.k1 = await w.competition(league, "knockout", ["Amy", "bob", "Cat"]);
  c.s1 = await w.competition(league, "season", ["Amy", "bob"]);
  for (const [name, md, team] of [
    ["Amy", 1, "T1"],
    ["bob", 1, "T3"],
    ["Cat", 1, "T2"],
    ["Amy", 2, "T3"],
    ["bob", 2, "T4"],
  ] as const)
    await w.pick(c.k1, name, md, team);
  for (const [name, md, team] of [
    ["Amy", 1, "T2"],
    ["Amy", 2, "T1"],
    ["Amy", 3, "T6"],
    ["bob", 1, "T1"],
    ["bob", 2, "T3"],
    ["bob", 3, "T5"],
  ] as const)
    await w.pick(c.s1, name, md, team);
  for (const md of [1, 2, 3]) await w.playMatchDay(league, md, {});

  // An older season: Amy out on match day 1 of a knockout Cat wins.
  const old = "History Old League";
  await createLeague(db.sql, {
    league: old,
    season: "2024/25",
    matchDays: 2,
    firstKickoff: new Date("2025-08-02T14:00:00Z"),
    pairs: [
      ["T1", "T2"],
      ["T3", "T4"],
    ],
  });
  c.old = (
    await createCompetition(db.sql, { type: "knockout", league: old, season: "2024/25", totalMatchDays: 2, registrationStatus: "closed" })
  ).id;
  for (const name of ["Amy", "Cat"]) await addMember(db.sql, c.old, w.ids[name], { matchDay: 1 });
  await addPick(db.sql, { userId: w.ids.Amy, competitionId: c.old, matchDay: 1, team: "T2" });
  await addPick(db.sql, { userId: w.ids.Cat, competitionId: c.old, matchDay: 1, team: "T1" });
  await play(old, "2024/25", 1, {});

  // Still played: a pick for a match day whose deadline is ahead (neither a result nor a most-picked team yet).
  const future = "History Future League";
  await createLeague(db.sql, { league: future, matchDays: 2, firstKickoff: new Date(Date.now() + 10 * 86_400_000), pairs: [["T1", "T2"]] });
  c.active = (await createCompetition(db.sql, { league: future, season: SEASON })).id;
  await addMember(db.sql, c.active, w.ids.Amy);
  await addPick(db.sql, { userId: w.ids.Amy, competitionId: c.active, matchDay: 1, team: "T1" });

  // Private ended knockouts on K1's league: Amy was in one, not in the other.
  c.privateIn = await w.competition(league, "knockout", ["Amy", "Cat"], {
    visibility: "private",
    status: "inactive",
    registration_status: "completed",
  });
  c.privateOut = await w.competition(league, "knockout", ["bob", "Cat"], {
    visibility: "private",
    status: "inactive",
    registration_status: "completed",
  });
  await w.pick(c.privateOut, "bob", 1, "T1");

  // Scout season totals of two seasons, and someone else's.
  await db.sql`insert into public.scout_season_totals (league, season, user_id, total_points, exact_count, best_entry_index, latest_match_day, first_entry_at)
                values ('Premier League', '2025/26', ${w.ids.Amy}, 12, 1, 0, 3, now()), ('La Liga', '2025/26', ${w.ids.Amy}, 5, 0, 0, 1, now()),
                       ('Premier League', '2025/26', ${w.ids.bob}, 40, 6, 0, 3, now())`;
});

afterAll(async () => {
  await db?.close();
});

describe("a player's stats", () => {
  it("counts played, won, best finish, longest knockout run, pick record and Scout over every competition", async () => {
    expect(await w.competitionRow(c.k1)).toMatchObject({ status: "inactive", knockout_winner: "Amy", current_match_day: 2 });
    const [amy] = await as<object[]>("Amy", "select * from public.player_stats()");
    expect(amy).toEqual({
      played: 5, // K1, S1, the older knockout, the one still played, the private one she was in
      won: 2, // K1, and the private one (ended with her and Cat still in: joint winners)
      best_finish: 1,
      longest_knockout_run: 2,
      picks_won: 3, // K1 md1, md2; S1 md2
      picks_drawn: 0,
      picks_lost: 3, // S1 md1, md3; the older knockout
      scout_points: 17,
      scout_exact: 1,
    });
    const [bob] = await as<object[]>(
      "bob",
      "select played, won, best_finish, longest_knockout_run, scout_points from public.player_stats()",
    );
    expect(bob).toEqual({ played: 3, won: 2, best_finish: 1, longest_knockout_run: 1, scout_points: 40 });
  });

  it("gives the pick record per season and the teams picked most, own picks of passed deadlines only", async () => {
    expect(await as("Amy", "select * from public.player_season_records()")).toEqual([
      { season: "2024/25", competitions: 1, won: 0, drawn: 0, lost: 1 },
      { season: "2025/26", competitions: 4, won: 3, drawn: 0, lost: 2 },
    ]);
    expect(await as("Amy", "select * from public.player_top_teams(3)")).toEqual([
      { team: "T1", picks: 2 },
      { team: "T2", picks: 2 },
      { team: "T3", picks: 1 },
    ]);
  });

  it("tells a signed-out caller nothing", async () => {
    expect(await asUser(db.sql, null, (tx) => tx`select * from public.player_stats()`)).toEqual([]);
    expect(await asUser(db.sql, null, (tx) => tx`select * from public.player_top_teams()`)).toEqual([]);
  });

  it("places knockout players out on the same match day together, behind later ones", async () => {
    const rows = await as<{ name: string; position: number }[]>(
      "dan",
      `select pn.username as name, public.final_position('${c.k1}', us.user_id) as position
         from public.user_selections us join public.player_names pn on pn.id = us.user_id
        where us.competition_id = '${c.k1}' order by 2, 1`,
    );
    expect(rows).toEqual([
      { name: "Amy", position: 1 },
      { name: "bob", position: 2 },
      { name: "Cat", position: 3 },
    ]);
    const [season] = await as<{ amy: number; bob: number; active: number | null }[]>(
      "dan",
      `select public.final_position('${c.s1}', '${w.ids.Amy}') as amy, public.final_position('${c.s1}', '${w.ids.bob}') as bob,
              public.final_position('${c.active}', '${w.ids.Amy}') as active`,
    );
    expect(season).toEqual({ amy: 2, bob: 1, active: null });
  });
});

describe("the archive of ended competitions", () => {
  const listed = async (name: string) =>
    (
      await as<{ id: string; was_member: boolean; my_finish: number | null; total: number }[]>(
        name,
        "select * from public.ended_competitions(0, 50)",
      )
    ).map((r) => ({ id: r.id, member: r.was_member, finish: r.my_finish, total: r.total }));

  it("lists ended public competitions for everyone and private ones only to their members", async () => {
    const amy = await listed("Amy");
    expect(amy.map((r) => r.id).sort()).toEqual([c.k1, c.s1, c.old, c.privateIn].sort());
    expect(amy.find((r) => r.id === c.k1)).toEqual({ id: c.k1, member: true, finish: 1, total: 4 });
    const dan = await listed("dan");
    expect(dan.map((r) => r.id).sort()).toEqual([c.k1, c.s1, c.old].sort());
    expect(dan.every((r) => !r.member && r.finish === null)).toBe(true);
    const [flags] = await as<object[]>(
      "Amy",
      `select public.in_archive('${c.privateIn}') as mine, public.in_archive('${c.privateOut}') as other,
              public.in_archive('${c.active}') as active, public.in_archive(gen_random_uuid()) as crafted`,
    );
    expect(flags).toEqual({ mine: true, other: false, active: false, crafted: false });
  });

  it("shows every match day's picks of a public ended competition to a non-member, never a private one's", async () => {
    const picks = await as<{ match_day: number; username: string; team: string; outcome: string }[]>(
      "dan",
      `select match_day, username, team, outcome from public.revealed_picks('${c.k1}') order by match_day, sort_name`,
    );
    expect(picks).toEqual([
      { match_day: 1, username: "Amy", team: "T1", outcome: "win" },
      { match_day: 1, username: "bob", team: "T3", outcome: "win" },
      { match_day: 1, username: "Cat", team: "T2", outcome: "loss" },
      { match_day: 2, username: "Amy", team: "T3", outcome: "win" },
      { match_day: 2, username: "bob", team: "T4", outcome: "loss" },
    ]);
    expect(await as("Amy", `select * from public.revealed_picks('${c.privateOut}')`)).toEqual([]);
    expect(await as("Amy", `select * from public.team_selections where competition_id = '${c.privateOut}'`)).toEqual([]);
    expect(await as("bob", `select team from public.revealed_picks('${c.privateOut}')`)).toEqual([{ team: "T1" }]);
  });

  it("never shows another player's pick of a match day whose deadline has not passed", async () => {
    // the active competition's pick (deadline ahead) is not in the archive: only its owner reads it
    expect(await as("dan", `select * from public.team_selections where competition_id = '${c.active}'`)).toEqual([]);
    expect(await as("Amy", `select * from public.revealed_picks('${c.active}')`)).toEqual([]);
  });
});
