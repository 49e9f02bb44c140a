/**
 * Standings: season scoring and ranking in user_competition_stats_view (from crafted results, including a tie
 * and a corrected result), and the order and statuses of knockout_leaderboard_view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "Views League";
const SEASON = "2025/26";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const K1 = new Date("2026-08-01T14:00:00Z");
const K2 = new Date(K1.getTime() + 7 * DAY);
const K3 = new Date(K2.getTime() + 7 * DAY); // current match day 3, still open
const NOW = new Date(K3.getTime() - 2 * DAY);

const ids: Record<string, string> = {};
let season: string;
let knockout: string;

async function player(username: string): Promise<string> {
  const { id } = await createPlayer(db.sql, { username, gender: "female" });
  ids[username] = id;
  return id;
}

async function competition(name: string, type: "knockout" | "season", extra: Record<string, unknown> = {}): Promise<string> {
  const { id } = await createCompetition(db.sql, {
    name,
    type,
    league: LEAGUE,
    season: SEASON,
    startDate: "2026-07-30",
    startMatchDay: 1,
    currentMatchDay: 3,
    registrationStatus: "closed",
    columns: extra,
  });
  return id;
}

async function member(username: string, competitionId: string, knockedOutOn: number | null = null) {
  await addMember(db.sql, competitionId, ids[username], { matchDay: 1, ...(knockedOutOn === null ? {} : { knockedOutOn }) });
}

async function pick(username: string, competitionId: string, matchDay: number, team: string) {
  expect(await addPick(db.sql, { userId: ids[username], competitionId, matchDay, team })).toBe(1);
}

async function result(home: string, matchDay: number, homeScore: number, awayScore: number) {
  const outcome = homeScore > awayScore ? "home_win" : homeScore < awayScore ? "away_win" : "draw";
  await db.sql`
    update public.fixtures set home_score = ${homeScore}, away_score = ${awayScore}, result = ${outcome}, status = 'complete'
     where league = ${LEAGUE} and season = ${SEASON} and match_day = ${matchDay} and home_team = ${home}`;
}

type StatsRow = {
  username: string;
  wins: number;
  draws: number;
  losses: number;
  goals_for: number;
  goals_against: number;
  points: number;
  rank: number | null;
};

const standings = (caller: string, competitionId: string) =>
  asUser(
    db.sql,
    ids[caller],
    (tx) => tx<StatsRow[]>`
  select username, wins, draws, losses, goals_for, goals_against, points, rank
    from public.user_competition_stats_view
   where competition_id = ${competitionId}
   order by rank, username`,
    { now: NOW },
  );

beforeAll(async () => {
  db = await useTestDatabase();
  for (const name of ["Pia", "Quinn", "Remy", "Sol", "Tess", "Amy", "bob", "zed", "Cat", "dan", "Eve"]) await player(name);

  await createFixtures(db.sql, LEAGUE, SEASON, [
    { matchDay: 1, kickoff: K1, home: "A", away: "B" },
    { matchDay: 1, kickoff: K1, home: "C", away: "D" },
    { matchDay: 1, kickoff: K1, home: "G", away: "H" },
    { matchDay: 2, kickoff: K2, home: "A", away: "C" },
    { matchDay: 2, kickoff: K2, home: "B", away: "D" },
    { matchDay: 2, kickoff: K2, home: "K", away: "L" },
    { matchDay: 3, kickoff: K3, home: "A", away: "D" },
  ]);

  season = await competition("Season Standings", "season");
  for (const name of ["Pia", "Quinn", "Remy", "Sol", "Tess"]) await member(name, season);
  // Pia: A (win 2-0) then B (draw 2-2)          -> W1 D1 L0, GF 4 GA 2, 4 pts
  // Quinn: G (win 2-0) then D (draw 2-2)        -> the same on all four criteria: shares 1st
  // Remy: C (draw 1-1) then A (win 1-0)         -> 4 pts, GD +1: 3rd
  // Sol: B (loss 0-2), no pick on match day 2   -> 0 pts, GD -2: 5th
  // Tess: K on match day 2, postponed           -> nothing at all: 4th (GD 0)
  await pick("Pia", season, 1, "A");
  await pick("Pia", season, 2, "B");
  await pick("Quinn", season, 1, "G");
  await pick("Quinn", season, 2, "D");
  await pick("Remy", season, 1, "C");
  await pick("Remy", season, 2, "A");
  await pick("Sol", season, 1, "B");
  await pick("Tess", season, 2, "K");
  await result("A", 1, 2, 0);
  await result("C", 1, 1, 1);
  await result("G", 1, 2, 0);
  await result("A", 2, 1, 0);
  await result("B", 2, 2, 2);
  await db.sql`update public.fixtures set status = 'postponed' where league = ${LEAGUE} and match_day = 2 and home_team = 'K'`;

  knockout = await competition("Knockout Order", "knockout");
  for (const name of ["zed", "Amy", "bob"]) await member(name, knockout);
  await member("Cat", knockout, 1);
  await member("dan", knockout, 2);
  await member("Eve", knockout, 2);
  await pick("Amy", knockout, 1, "A");
});

afterAll(async () => {
  await db?.close();
});

describe("user_competition_stats_view (season)", () => {
  it("scores the picked team's results and ranks ties together (1st, 1st, 3rd)", async () => {
    expect(await standings("Sol", season)).toEqual([
      { username: "Pia", wins: 1, draws: 1, losses: 0, goals_for: 4, goals_against: 2, points: 4, rank: 1 },
      { username: "Quinn", wins: 1, draws: 1, losses: 0, goals_for: 4, goals_against: 2, points: 4, rank: 1 },
      { username: "Remy", wins: 1, draws: 1, losses: 0, goals_for: 2, goals_against: 1, points: 4, rank: 3 },
      { username: "Tess", wins: 0, draws: 0, losses: 0, goals_for: 0, goals_against: 0, points: 0, rank: 4 },
      { username: "Sol", wins: 0, draws: 0, losses: 1, goals_for: 0, goals_against: 2, points: 0, rank: 5 },
    ]);
  });

  it("shows the same standings to a player who is not a member (no pick is revealed by them)", async () => {
    const rows = await standings("Amy", season);
    expect(rows.map((r) => [r.username, r.points, r.rank])).toEqual([
      ["Pia", 4, 1],
      ["Quinn", 4, 1],
      ["Remy", 4, 3],
      ["Tess", 0, 4],
      ["Sol", 0, 5],
    ]);
  });

  it("re-scores when a result is corrected, and when a postponed fixture is played", async () => {
    await result("G", 1, 3, 0); // Quinn now has GF 5: alone in 1st
    await db.sql`update public.fixtures set status = 'pending' where league = ${LEAGUE} and match_day = 2 and home_team = 'K'`;
    await result("K", 2, 0, 0); // Tess: a draw
    let rows = await standings("Sol", season);
    expect(rows.map((r) => [r.username, r.points, r.goals_for, r.rank])).toEqual([
      ["Quinn", 4, 5, 1],
      ["Pia", 4, 4, 2],
      ["Remy", 4, 2, 3],
      ["Tess", 1, 0, 4],
      ["Sol", 0, 0, 5],
    ]);
    // Back to the original results: the same numbers as before (scoring is idempotent).
    await result("G", 1, 2, 0);
    await db.sql`update public.fixtures set status = 'postponed', home_score = null, away_score = null, result = null
                  where league = ${LEAGUE} and match_day = 2 and home_team = 'K'`;
    rows = await standings("Sol", season);
    expect(rows.map((r) => [r.username, r.points, r.rank])).toEqual([
      ["Pia", 4, 1],
      ["Quinn", 4, 1],
      ["Remy", 4, 3],
      ["Tess", 0, 4],
      ["Sol", 0, 5],
    ]);
  });

  it("re-ranks when a member joins or leaves", async () => {
    await member("Amy", season); // 0 points, GD 0: level with Tess
    expect((await standings("Sol", season)).map((r) => [r.username, r.rank])).toEqual([
      ["Pia", 1],
      ["Quinn", 1],
      ["Remy", 3],
      ["Amy", 4],
      ["Tess", 4],
      ["Sol", 6],
    ]);
    await db.sql`delete from public.user_selections where user_id = ${ids.Amy} and competition_id = ${season}`;
    expect((await standings("Sol", season)).map((r) => [r.username, r.rank])).toEqual([
      ["Pia", 1],
      ["Quinn", 1],
      ["Remy", 3],
      ["Tess", 4],
      ["Sol", 5],
    ]);
    const [{ n }] = await db.sql`select count(*)::int as n from public.membership_ranks where competition_id = ${season}`;
    expect(n).toBe(5);
  });

  it("gives the dashboard every membership of a player in one query, with the current match day's deadline", async () => {
    const [row] = await asUser(
      db.sql,
      ids.Pia,
      (tx) => tx`
      select competition, competition_type, current_match_day, first_kickoff_time, selection_deadline, joined_match_day,
             membership_status, selection_status, has_selection, current_selection, selection_hidden, username
        from public.user_competition_stats_view where user_id = ${ids.Pia}`,
      { now: NOW },
    );
    expect(row).toEqual({
      competition: "Season Standings",
      competition_type: "season",
      current_match_day: 3,
      first_kickoff_time: K3,
      selection_deadline: new Date(K3.getTime() - HOUR),
      joined_match_day: 1,
      membership_status: "active",
      selection_status: "active",
      has_selection: false,
      current_selection: null,
      selection_hidden: false,
      username: "Pia",
    });
  });

  it("gives knockout rows W/D/L but no rank", async () => {
    await result("A", 3, 1, 0);
    const rows = await asUser(
      db.sql,
      ids.Amy,
      (tx) => tx`
      select username, wins, losses, rank from public.user_competition_stats_view
       where competition_id = ${knockout} and user_id = ${ids.Amy}`,
      { now: NOW },
    );
    expect(rows).toEqual([{ username: "Amy", wins: 1, losses: 0, rank: null }]);
  });

  it("uses indexes for the dashboard and the leaderboard", async () => {
    const plan = async (where: string) => {
      const rows = await db.sql.begin(async (tx) => {
        await tx`set local enable_seqscan = off`;
        return tx.unsafe(`explain select * from public.user_competition_stats_view where ${where}`);
      });
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    };
    const byUser = await plan(`user_id = '${ids.Pia}'`);
    // With sequential scans disabled, a table that no index can serve would still show up as a Seq Scan.
    expect(byUser).not.toMatch(/Seq Scan/);
    expect(byUser).toMatch(/Index Scan (using|on) user_selections_user_competition_key/);
    const byCompetition = await plan(`competition_id = '${season}'`);
    expect(byCompetition).not.toMatch(/Seq Scan/);
    expect(byCompetition).toMatch(/Index Cond: \(competition_id = '/);
    expect(byCompetition).toMatch(/membership_ranks_pkey/);
  });
});

describe("knockout_leaderboard_view", () => {
  const board = () =>
    asUser(
      db.sql,
      ids.Cat,
      (tx) => tx<{ user_username: string; status: string; knocked_out_on: number | null; position: number }[]>`
    select user_username, status, knocked_out_on, position from public.knockout_leaderboard_view
     where competition_id = ${knockout} order by position`,
      { now: NOW },
    );

  it("lists still-in players alphabetically, then eliminated ones, latest elimination first", async () => {
    expect(await board()).toEqual([
      { user_username: "Amy", status: "Still In", knocked_out_on: null, position: 1 },
      { user_username: "bob", status: "Still In", knocked_out_on: null, position: 2 },
      { user_username: "zed", status: "Still In", knocked_out_on: null, position: 3 },
      { user_username: "dan", status: "Eliminated", knocked_out_on: 2, position: 4 },
      { user_username: "Eve", status: "Eliminated", knocked_out_on: 2, position: 5 },
      { user_username: "Cat", status: "Eliminated", knocked_out_on: 1, position: 6 },
    ]);
  });

  it("shows the winner, and every survivor of an ended competition, as Winner", async () => {
    await db.sql`update public.competitions set knockout_winner = ${ids.bob} where id = ${knockout}`;
    expect((await board()).map((r) => r.status)).toEqual(["Still In", "Winner", "Still In", "Eliminated", "Eliminated", "Eliminated"]);
    await db.sql`update public.competitions set status = 'inactive', registration_status = 'completed' where id = ${knockout}`;
    expect((await board()).map((r) => r.status)).toEqual(["Winner", "Winner", "Winner", "Eliminated", "Eliminated", "Eliminated"]);
  });

  it("filters by competition below the window (index scan)", async () => {
    const rows = await db.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx.unsafe(`explain select * from public.knockout_leaderboard_view where competition_id = '${knockout}'`);
    });
    const text = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).toMatch(/Index Cond: \(competition_id = '/);
  });
});
