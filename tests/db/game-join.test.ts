/**
 * Joining, leaving and creating competitions through the SQL API: join_competition, unregister_competition
 * and create_private_competition, with their answer codes and validation messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createAccount, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { asUser, connect, errorCode, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "Premier League";
const SEASON = "2025/26";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const K3 = new Date("2026-06-06T14:00:00Z"); // first kickoff of match day 3
const NOW = new Date(K3.getTime() - 3 * DAY); // registration open
const LATE = new Date(K3.getTime() - HOUR); // start match day's deadline

const ids = {} as Record<"alice" | "bob" | "carol" | "admin" | "ghost" | "racer", string>;
let open: string;
let privateComp: string;
let privateKey: string;
let closed: string;
let scout: string;
let inactive: string;

async function accountOnly(email: string): Promise<string> {
  return (await createAccount(db.sql, { email })).id;
}

async function player(username: string, role: "player" | "admin" = "player"): Promise<string> {
  return (await createPlayer(db.sql, { username, role, gender: "male" })).id;
}

async function competition(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { id } = await createCompetition(db.sql, {
    name,
    league: LEAGUE,
    season: SEASON,
    startDate: "2026-06-01",
    startMatchDay: 3,
    createdBy: ids.admin,
    columns: extra,
  });
  return id;
}

const joinAs = async (caller: string | null, competitionId: string, key?: string | null, now = NOW) =>
  (
    await asUser(
      db.sql,
      caller,
      (tx) =>
        key === undefined
          ? tx<{ code: string }[]>`select public.join_competition(${competitionId}) as code`
          : tx<{ code: string }[]>`select public.join_competition(${competitionId}, ${key}) as code`,
      { now },
    )
  )[0].code;

const leaveAs = async (caller: string | null, competitionId: string, now = NOW) =>
  (
    await asUser(
      db.sql,
      caller,
      (tx) => tx<{ code: string }[]>`
    select public.unregister_competition(${competitionId}) as code`,
      { now },
    )
  )[0].code;

const members = async (competitionId: string) => {
  const [row] = await db.sql<{ player_count: number; n: number }[]>`
    select c.player_count, (select count(*)::int from public.user_selections us where us.competition_id = c.id) as n
      from public.competitions c where c.id = ${competitionId}`;
  return row;
};

beforeAll(async () => {
  db = await useTestDatabase();
  ids.alice = await player("Alice");
  ids.bob = await player("Bob");
  ids.carol = await player("Carol");
  ids.admin = await player("Admin", "admin");
  ids.racer = await player("Racer");
  ids.ghost = await accountOnly("ghost@example.test");

  await createFixtures(db.sql, LEAGUE, SEASON, [
    { matchDay: 3, kickoff: K3, home: "Arsenal", away: "Chelsea" },
    { matchDay: 4, kickoff: new Date(K3.getTime() + 7 * DAY), home: "Chelsea", away: "Fulham" },
    { matchDay: 1, kickoff: new Date(K3.getTime() - 14 * DAY), home: "Arsenal", away: "Fulham" },
  ]);
  await createFixtures(db.sql, "La Liga", "2024/25", [
    { matchDay: 5, kickoff: new Date(K3.getTime() + 2 * DAY), home: "Sevilla", away: "Betis" },
  ]);

  open = await competition("Open Knockout");
  privateComp = await competition("Private Knockout", { visibility: "private", created_by: ids.alice });
  [{ registration_key: privateKey }] = await db.sql`select registration_key from public.competitions where id = ${privateComp}`;
  closed = await competition("Closed Knockout", { registration_status: "closed" });
  scout = await competition("The Scout", { type: "scout" });
  inactive = await competition("Inactive Knockout", { status: "inactive" });
});

afterAll(async () => {
  await db?.close();
});

describe("join_competition", () => {
  it("joins with the competition's league, season and current match day, and counts the player", async () => {
    expect(await joinAs(ids.bob, open)).toBe("joined");
    const [row] = await db.sql`
      select league, season, match_day, status from public.user_selections where user_id = ${ids.bob} and competition_id = ${open}`;
    expect(row).toEqual({ league: LEAGUE, season: SEASON, match_day: 3, status: "active" });
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
  });

  it("answers already_joined the second time", async () => {
    expect(await joinAs(ids.bob, open)).toBe("already_joined");
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
  });

  it("answers not_signed_in, not_found and no_username", async () => {
    expect(await joinAs(null, open)).toBe("not_signed_in");
    expect(await joinAs(ids.bob, "00000000-0000-4000-8000-000000000000")).toBe("not_found");
    expect(await joinAs(ids.ghost, open)).toBe("no_username");
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
  });

  it("is not callable by anon", async () => {
    const code = await errorCode(asUser(db.sql, null, (tx) => tx`select public.join_competition(${open})`, { role: "anon" }));
    expect(code).toBe("42501");
  });

  it("checks the private key after trimming, in any letter case; a wrong or missing key is invalid_key", async () => {
    expect(await joinAs(ids.bob, privateComp, "WRONGKEY")).toBe("invalid_key");
    expect(await joinAs(ids.bob, privateComp, "wrongkey")).toBe("invalid_key");
    expect(await joinAs(ids.bob, privateComp, `${privateKey}X`.toLowerCase())).toBe("invalid_key");
    expect(await joinAs(ids.bob, privateComp, null)).toBe("invalid_key");
    expect(await joinAs(ids.bob, privateComp)).toBe("invalid_key");
    expect(await members(privateComp)).toEqual({ player_count: 0, n: 0 });
    // Keys are upper case; a key typed in lower (or mixed) case is the same key.
    expect(privateKey).toBe(privateKey.toUpperCase());
    expect(await joinAs(ids.bob, privateComp, `  ${privateKey.toLowerCase()}\t `)).toBe("joined");
    expect(await members(privateComp)).toEqual({ player_count: 1, n: 1 });
    expect(await joinAs(ids.racer, privateComp, privateKey.slice(0, 4) + privateKey.slice(4).toLowerCase())).toBe("joined");
    expect(await members(privateComp)).toEqual({ player_count: 2, n: 2 });
    expect(await leaveAs(ids.racer, privateComp)).toBe("unregistered");
  });

  it("answers registration_closed when registration is closed, the competition is inactive or a Scout", async () => {
    expect(await joinAs(ids.carol, closed)).toBe("registration_closed");
    expect(await joinAs(ids.carol, inactive)).toBe("registration_closed");
    expect(await joinAs(ids.carol, scout)).toBe("registration_closed");
    const [{ n }] = await db.sql`select count(*)::int as n from public.user_selections where user_id = ${ids.carol}`;
    expect(n).toBe(0);
  });

  it("answers registration_closed once the start match day's deadline has passed", async () => {
    expect(await joinAs(ids.carol, open, undefined, LATE)).toBe("registration_closed");
  });

  it("no longer lets players insert or delete memberships directly", async () => {
    const insert = await errorCode(
      asUser(
        db.sql,
        ids.carol,
        (tx) => tx`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      values (${ids.carol}, ${open}, ${LEAGUE}, ${SEASON}, 3)`,
      ),
    );
    expect(insert).toBe("42501");
    const del = await asUser(
      db.sql,
      ids.bob,
      (tx) => tx`
      delete from public.user_selections where user_id = ${ids.bob} and competition_id = ${open}`,
    );
    expect(del.count).toBe(0);
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
  });

  itOnRealPostgres("gives one membership for 20 simultaneous joins of one player (real PostgreSQL only)", async () => {
    const rush = await competition("Rush Knockout");
    const clients = Array.from({ length: 20 }, () => connect(db.url, { max: 1 }));
    try {
      const codes = await Promise.all(
        clients.map((c) =>
          asUser(c, ids.racer, (tx) => tx<{ code: string }[]>`select public.join_competition(${rush}) as code`, { now: NOW }),
        ),
      );
      const tally = codes
        .map((c) => c[0].code)
        .reduce<Record<string, number>>((acc, code) => {
          acc[code] = (acc[code] ?? 0) + 1;
          return acc;
        }, {});
      expect(tally).toEqual({ joined: 1, already_joined: 19 });
      expect(await members(rush)).toEqual({ player_count: 1, n: 1 });
      // Others joining at the same time as well: the count stays exact.
      const others = [ids.alice, ids.bob, ids.carol, ids.admin];
      const more = await Promise.all(
        others.map((id, i) =>
          asUser(clients[i], id, (tx) => tx<{ code: string }[]>`select public.join_competition(${rush}) as code`, { now: NOW }),
        ),
      );
      expect(more.map((c) => c[0].code)).toEqual(["joined", "joined", "joined", "joined"]);
      expect(await members(rush)).toEqual({ player_count: 5, n: 5 });
    } finally {
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    }
  });
});

describe("concurrency", () => {
  itOnRealPostgres("runs joins, leaves, saves and result entry at the same time without deadlocks (real PostgreSQL only)", async () => {
    const mixed = await competition("Mixed Season", { type: "season" });
    const old = await player("Oldtimer");
    const stay: string[] = [];
    for (let i = 0; i < 6; i++) stay.push(await player(`Stayer${i}`));
    const go = [await player("Leaver0"), await player("Leaver1")];
    const come: string[] = [];
    for (let i = 0; i < 4; i++) come.push(await player(`Joiner${i}`));
    for (const id of [...stay, ...go, old]) {
      await addMember(db.sql, mixed, id, { matchDay: 3 });
      // An old pick on match day 1, re-scored by the result entry below.
      await addPick(db.sql, { userId: id, competitionId: mixed, matchDay: 1, team: "Arsenal" });
    }
    const resultEntry = (home: number, away: number) => (c: ReturnType<typeof connect>) => c`
        update public.fixtures
           set home_score = ${home}, away_score = ${away}, status = 'complete',
               result = ${home > away ? "home_win" : home < away ? "away_win" : "draw"}
         where league = ${LEAGUE} and season = ${SEASON} and match_day = 1`;
    const ops: ((c: ReturnType<typeof connect>) => Promise<unknown>)[] = [
      ...stay.map(
        (id, i) => (c: ReturnType<typeof connect>) =>
          asUser(c, id, (tx) => tx`select public.save_team_selection(${mixed}, ${i % 2 ? "Arsenal" : "Chelsea"}) as code`, { now: NOW }),
      ),
      ...go.map(
        (id) => (c: ReturnType<typeof connect>) =>
          asUser(c, id, (tx) => tx`select public.unregister_competition(${mixed}) as code`, { now: NOW }),
      ),
      ...come.map(
        (id) => (c: ReturnType<typeof connect>) =>
          asUser(c, id, (tx) => tx`select public.join_competition(${mixed}) as code`, { now: NOW }),
      ),
      resultEntry(2, 1),
      resultEntry(0, 0),
    ];
    const clients = ops.map(() => connect(db.url, { max: 1 }));
    try {
      const results = await Promise.all(ops.map((op, i) => op(clients[i])));
      const codes = results.slice(0, 12).map((r) => (r as { code: string }[])[0].code);
      expect(codes).toEqual([...Array(6).fill("saved"), "unregistered", "unregistered", ...Array(4).fill("joined")]);
    } finally {
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    }
    expect(await members(mixed)).toEqual({ player_count: 11, n: 11 });
    // Stored stats and ranks agree with a fresh computation, whichever result entry came last.
    const [{ home_score }] = await db.sql`
        select home_score from public.fixtures where league = ${LEAGUE} and season = ${SEASON} and match_day = 1`;
    const expected = home_score === 2 ? { wins: 1, draws: 0, points: 3 } : { wins: 0, draws: 1, points: 1 };
    const rows = await db.sql`
        select us.user_id, us.wins, us.draws, us.points, r.rank,
               rank() over (order by us.points desc, us.goal_difference desc, us.goals_for desc, us.wins desc)::int as fresh
          from public.user_selections us
          left join public.membership_ranks r on r.competition_id = us.competition_id and r.user_id = us.user_id
         where us.competition_id = ${mixed}`;
    expect(rows.length).toBe(11);
    for (const r of rows) expect(r.rank).toBe(r.fresh);
    const veterans = rows.filter((r) => [...stay, old].includes(r.user_id));
    expect(veterans.map((r) => ({ wins: r.wins, draws: r.draws, points: r.points }))).toEqual(Array(7).fill(expected));
  });
});

describe("unregister_competition", () => {
  it("deletes the membership and its picks, and uncounts the player", async () => {
    expect(await joinAs(ids.carol, open)).toBe("joined");
    await addPick(db.sql, { userId: ids.carol, competitionId: open, matchDay: 3, team: "Chelsea" });
    expect(await members(open)).toEqual({ player_count: 2, n: 2 });
    expect(await leaveAs(ids.carol, open)).toBe("unregistered");
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
    const [{ n }] = await db.sql`select count(*)::int as n from public.team_selections where user_id = ${ids.carol}`;
    expect(n).toBe(0);
  });

  it("answers not_registered, not_signed_in", async () => {
    expect(await leaveAs(ids.carol, open)).toBe("not_registered");
    expect(await leaveAs(ids.carol, "00000000-0000-4000-8000-000000000000")).toBe("not_registered");
    expect(await leaveAs(null, open)).toBe("not_signed_in");
  });

  it("answers registration_closed when registration is closed or its deadline passed", async () => {
    await addMember(db.sql, closed, ids.carol, { matchDay: 3 });
    expect(await leaveAs(ids.carol, closed)).toBe("registration_closed");
    expect(await leaveAs(ids.bob, open, LATE)).toBe("registration_closed");
    expect(await members(closed)).toEqual({ player_count: 1, n: 1 });
    expect(await members(open)).toEqual({ player_count: 1, n: 1 });
  });
});

describe("create_private_competition", () => {
  type Args = [string | null, string | null, string | null, string | null, string | null, number | null];
  const create = (caller: string | null, args: Args, now = NOW) =>
    asUser(
      db.sql,
      caller,
      (tx) => tx<{ id: string; registration_key: string }[]>`
      select * from public.create_private_competition(${args[0]}, ${args[1]}, ${args[2]}, ${args[3]}, ${args[4]}, ${args[5]})`,
      { now },
    );
  const failure = async (caller: string, args: Args, now = NOW) => {
    try {
      await create(caller, args, now);
    } catch (error) {
      const e = error as { code?: string; message: string };
      return [e.code, e.message];
    }
    throw new Error("expected create_private_competition to fail");
  };

  it("lets a player choose type, league and season (decision 028)", async () => {
    const [row] = await create(ids.bob, ["Bob's Liga", "season", "La Liga", "2024/25", "2026-06-03", 5]);
    const [c] = await db.sql`select type, league, season, visibility, created_by from public.competitions where id = ${row.id}`;
    expect(c).toEqual({ type: "season", league: "La Liga", season: "2024/25", visibility: "private", created_by: ids.bob });
  });

  it("creates a player's knockout as chosen and returns its key", async () => {
    const [row] = await create(ids.bob, ["  Bob's Mates  ", "knockout", LEAGUE, SEASON, "2026-06-03", 3]);
    expect(row.registration_key).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const [c] = await db.sql`
      select name, type, league, season, start_date::text, start_match_day, current_match_day, status,
             registration_status, visibility, created_by, registration_key, player_count
        from public.competitions where id = ${row.id}`;
    expect(c).toEqual({
      name: "Bob's Mates",
      type: "knockout",
      league: LEAGUE,
      season: SEASON,
      start_date: "2026-06-03",
      start_match_day: 3,
      current_match_day: 3,
      status: "active",
      registration_status: "open",
      visibility: "private",
      created_by: ids.bob,
      registration_key: row.registration_key,
      player_count: 1,
    });
    const [{ k }] = await asUser(db.sql, ids.bob, (tx) => tx`select public.competition_registration_key(${row.id}) as k`);
    expect(k).toBe(row.registration_key);
  });

  it("makes the creator a member of their competition, at its start match day, in the same transaction", async () => {
    const [row] = await create(ids.carol, ["Carol's Crew", "knockout", LEAGUE, SEASON, "2026-06-03", 3]);
    const memberships = await db.sql`
      select user_id, league, season, match_day, status from public.user_selections where competition_id = ${row.id}`;
    expect(memberships).toEqual([{ user_id: ids.carol, league: LEAGUE, season: SEASON, match_day: 3, status: "active" }]);
    expect(await members(row.id)).toEqual({ player_count: 1, n: 1 });
    // Already a member: the key is not needed and joining again changes nothing.
    expect(await joinAs(ids.carol, row.id, row.registration_key)).toBe("already_joined");
    // A refused creation leaves neither a competition nor a membership behind.
    const before = await db.sql`select count(*)::int as n from public.user_selections where user_id = ${ids.carol}`;
    const [code] = await failure(ids.carol, ["Carol's Crew", "knockout", LEAGUE, SEASON, "2026-06-03", 3]);
    expect(code).toBe("P0001");
    const after = await db.sql`select count(*)::int as n from public.user_selections where user_id = ${ids.carol}`;
    expect(after).toEqual(before);
    await asUser(db.sql, ids.carol, (tx) => tx`select public.unregister_competition(${row.id})`, { now: NOW });
  });

  it("lets an admin choose type, league and season", async () => {
    const [row] = await create(ids.admin, ["Liga Friends", "season", "La Liga", "2024/25", "2026-06-03", 5]);
    const [c] = await db.sql`select type, league, season, visibility, created_by from public.competitions where id = ${row.id}`;
    expect(c).toEqual({ type: "season", league: "La Liga", season: "2024/25", visibility: "private", created_by: ids.admin });
  });

  it.each<[string, Args, Date | undefined, string]>([
    ["a blank name", ["   ", "knockout", LEAGUE, SEASON, "2026-06-03", 3], undefined, "Please fill in all required fields."],
    ["no name", [null, "knockout", LEAGUE, SEASON, "2026-06-03", 3], undefined, "Please fill in all required fields."],
    ["no start date", ["Fine name", "knockout", LEAGUE, SEASON, null, 3], undefined, "Please fill in all required fields."],
    [
      "start match day 0",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-03", 0],
      undefined,
      "Start Match Day must be a positive whole number.",
    ],
    [
      "start match day 39",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-03", 39],
      undefined,
      "Start Match Day must be a positive whole number.",
    ],
    [
      "a past start date",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-02", 3],
      undefined,
      "Start date must be today or a future date.",
    ],
    [
      "a match day without fixtures",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-03", 7],
      undefined,
      "Start Match Day must be a match day that has not started yet.",
    ],
    [
      "a match day already played",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-03", 1],
      undefined,
      "Start Match Day must be a match day that has not started yet.",
    ],
    [
      "a match day past its deadline",
      ["Fine name", "knockout", LEAGUE, SEASON, "2026-06-06", 3],
      LATE,
      "Start Match Day must be a match day that has not started yet.",
    ],
    [
      "an existing name and type",
      ["Open Knockout", "knockout", LEAGUE, SEASON, "2026-06-03", 3],
      undefined,
      "A competition with this name and type already exists.",
    ],
    [
      "an existing name in another case",
      ["  bob's MATES ", "knockout", LEAGUE, SEASON, "2026-06-03", 3],
      undefined,
      "A competition with this name and type already exists.",
    ],
  ])("refuses %s", async (_label, args, now, message) => {
    // NOW is 2026-06-03 (UTC), so "2026-06-03" is today.
    expect(await failure(ids.carol, args, now ?? NOW)).toEqual(["P0001", message]);
  });

  it("accepts today as the start date and the same name with another type (admin)", async () => {
    const [row] = await create(ids.admin, ["Open Knockout", "season", LEAGUE, SEASON, "2026-06-03", 4]);
    expect(row.id).toBeTruthy();
    expect(await failure(ids.admin, ["open knockout", "season", LEAGUE, SEASON, "2026-06-03", 4])).toEqual([
      "P0001",
      "A competition with this name and type already exists.",
    ]);
  });

  it("takes today in the creator's time zone, as the form shows it", async () => {
    const zoned = async (username: string, zone: string) => {
      const id = await player(username);
      await db.sql`update public.profiles set time_zone = ${zone} where id = ${id}`;
      return id;
    };
    const la = await zoned("Coastal", "America/Los_Angeles");
    const tokyo = await zoned("Eastern", "Asia/Tokyo");
    const badZone = await zoned("Nowhere", "Mars/Olympus_Mons");
    // 02:00 UTC on 4 June is still the evening of 3 June in Los Angeles.
    const lateInLa = new Date("2026-06-04T02:00:00Z");
    const [row] = await create(la, ["Coastal Mates", "knockout", LEAGUE, SEASON, "2026-06-03", 3], lateInLa);
    expect(row.id).toBeTruthy();
    expect(await failure(ids.carol, ["Carol Late", "knockout", LEAGUE, SEASON, "2026-06-03", 3], lateInLa)).toEqual([
      "P0001",
      "Start date must be today or a future date.",
    ]);
    // 16:00 UTC on 3 June is already 4 June in Tokyo.
    const earlyInTokyo = new Date("2026-06-03T16:00:00Z");
    expect(await failure(tokyo, ["Eastern Mates", "knockout", LEAGUE, SEASON, "2026-06-03", 3], earlyInTokyo)).toEqual([
      "P0001",
      "Start date must be today or a future date.",
    ]);
    // A zone the database does not know falls back to UTC rather than failing.
    const [fallback] = await create(badZone, ["Nowhere Mates", "knockout", LEAGUE, SEASON, "2026-06-03", 3], earlyInTokyo);
    expect(fallback.id).toBeTruthy();
  });

  it("is not callable by anon and refuses a caller without a profile", async () => {
    const anon = await errorCode(
      asUser(
        db.sql,
        null,
        (tx) => tx`
      select * from public.create_private_competition('X', 'knockout', 'Premier League', '2025/26', '2026-06-03', 3)`,
        { role: "anon" },
      ),
    );
    expect(anon).toBe("42501");
    expect((await failure(ids.ghost, ["Ghost League", null, null, null, "2026-06-03", 3]))[0]).toBe("42501");
  });

  itOnRealPostgres("reports a concurrent duplicate with the same message (real PostgreSQL only)", async () => {
    const clients = Array.from({ length: 6 }, () => connect(db.url, { max: 1 }));
    try {
      const results = await Promise.allSettled(
        clients.map((c, i) =>
          asUser(
            c,
            [ids.alice, ids.bob, ids.carol][i % 3],
            (tx) => tx`
          select * from public.create_private_competition('Photo Finish', 'knockout', ${LEAGUE}, ${SEASON}, '2026-06-03', 3)`,
            { now: NOW },
          ),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      const reasons = results.flatMap((r) =>
        r.status === "rejected" ? [[(r.reason as { code: string }).code, (r.reason as Error).message]] : [],
      );
      expect(reasons).toEqual(Array(5).fill(["P0001", "A competition with this name and type already exists."]));
    } finally {
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    }
  });
});
