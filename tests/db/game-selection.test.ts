/**
 * Team selection as a player sees it: get_eligible_teams, save_team_selection, the creator's
 * set_player_selection, hidden picks (table and views) and the registration key. Every call runs as role
 * authenticated with the application clock moved around the match day's deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { asUser, connect, errorCode, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "Selection League";
const SEASON = "2025/26";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const K1 = new Date("2026-05-02T14:00:00Z"); // first kickoff of match day 1
const K2 = new Date(K1.getTime() + 7 * DAY); // first kickoff of match day 2 (the current one)
const BEFORE = new Date(K2.getTime() - 2 * HOUR); // deadline of match day 2 is K2 - 1h
const AFTER = new Date(K2.getTime() - HOUR); // exactly at the deadline: closed

const ids = {} as Record<"alice" | "bob" | "carol" | "dave" | "admin", string>;
let knockout: string;
let season: string;
let ko2: string;

async function player(username: string, role: "player" | "admin" = "player"): Promise<string> {
  return (await createPlayer(db.sql, { username, role, gender: "female" })).id;
}

async function competition(name: string, type: "knockout" | "season", extra: Record<string, unknown> = {}): Promise<string> {
  const { id } = await createCompetition(db.sql, {
    name,
    type,
    league: LEAGUE,
    season: SEASON,
    startDate: "2026-05-01",
    startMatchDay: 1,
    currentMatchDay: 2,
    registrationStatus: "closed",
    columns: extra,
  });
  return id;
}

async function join(userId: string, competitionId: string, status: "active" | "eliminated" = "active") {
  await addMember(db.sql, competitionId, userId, { matchDay: 1, ...(status === "eliminated" ? { knockedOutOn: 1 } : {}) });
}

/** A pick written by the owner connection (history). */
async function pick(userId: string, competitionId: string, matchDay: number, team: string) {
  await addPick(db.sql, { userId, competitionId, matchDay, team });
}

const eligible = async (caller: string | null, competitionId: string, userId: string, now = BEFORE) =>
  (
    await asUser(
      db.sql,
      caller,
      (tx) => tx<{ team: string }[]>`
    select team from public.get_eligible_teams(${competitionId}, ${userId})`,
      { now },
    )
  ).map((r) => r.team);

const save = async (caller: string | null, competitionId: string, team: string | null, now = BEFORE) =>
  (
    await asUser(
      db.sql,
      caller,
      (tx) => tx<{ code: string }[]>`
    select public.save_team_selection(${competitionId}, ${team}) as code`,
      { now },
    )
  )[0].code;

const setFor = async (caller: string, competitionId: string, userId: string, team: string, now = AFTER) =>
  (
    await asUser(
      db.sql,
      caller,
      (tx) => tx<{ code: string }[]>`
    select public.set_player_selection(${competitionId}, ${userId}, ${team}) as code`,
      { now },
    )
  )[0].code;

const picksOf = (userId: string, competitionId: string, matchDay = 2) => db.sql<
  { selected_team: string; prediction: string; set_by: string | null; set_at: Date | null }[]
>`select selected_team, prediction, set_by, set_at from public.team_selections
   where user_id = ${userId} and competition_id = ${competitionId} and match_day = ${matchDay}`;

beforeAll(async () => {
  db = await useTestDatabase();
  ids.alice = await player("Alice");
  ids.bob = await player("Bob");
  ids.carol = await player("Carol");
  ids.dave = await player("Dave");
  ids.admin = await player("Admin", "admin");

  await createFixtures(db.sql, LEAGUE, SEASON, [
    { matchDay: 1, kickoff: K1, home: "Reds", away: "Blues" },
    { matchDay: 1, kickoff: new Date(K1.getTime() + 2 * HOUR), home: "Greens", away: "Whites" },
    { matchDay: 2, kickoff: K2, home: "Blues", away: "Greens" },
    { matchDay: 2, kickoff: new Date(K2.getTime() + 2 * HOUR), home: "Reds", away: "Whites" },
    { matchDay: 2, kickoff: new Date(K2.getTime() + 3 * HOUR), home: "Golds", away: "Silvers", status: "postponed" },
  ]);

  knockout = await competition("Alice's Survivors", "knockout", { visibility: "private", created_by: ids.alice });
  season = await competition("Open Season", "season", { created_by: ids.admin });
  ko2 = await competition("Second Knockout", "knockout", { created_by: ids.admin });
  for (const c of [knockout, season]) {
    await join(ids.alice, c);
    await join(ids.bob, c);
    await join(ids.dave, c, "eliminated");
  }
  await join(ids.alice, ko2);
  // Match day 1 history: Alice backed the Reds in both competitions.
  await pick(ids.alice, knockout, 1, "Reds");
  await pick(ids.alice, season, 1, "Reds");
});

afterAll(async () => {
  await db?.close();
});

describe("get_eligible_teams", () => {
  it("never offers a knockout player a team they already picked, nor a postponed fixture's teams", async () => {
    expect(await eligible(ids.alice, knockout, ids.alice)).toEqual(["Blues", "Greens", "Whites"]);
    expect(await eligible(ids.bob, knockout, ids.bob)).toEqual(["Blues", "Greens", "Reds", "Whites"]);
  });

  it("offers every team that plays in a season competition (reuse allowed)", async () => {
    expect(await eligible(ids.alice, season, ids.alice)).toEqual(["Blues", "Greens", "Reds", "Whites"]);
  });

  it("offers nothing once the current match day's deadline has passed", async () => {
    expect(await eligible(ids.alice, knockout, ids.alice, AFTER)).toEqual([]);
    expect(await eligible(ids.alice, season, ids.alice, new Date(K2.getTime() + DAY))).toEqual([]);
  });

  it("offers nothing to eliminated players, non-members or strangers asking about someone else", async () => {
    expect(await eligible(ids.dave, knockout, ids.dave)).toEqual([]);
    expect(await eligible(ids.carol, knockout, ids.carol)).toEqual([]);
    expect(await eligible(ids.bob, knockout, ids.alice)).toEqual([]);
    expect(await eligible(null, knockout, ids.alice)).toEqual([]);
  });

  it("lets an admin see another player's eligible teams", async () => {
    expect(await eligible(ids.admin, knockout, ids.alice)).toEqual(["Blues", "Greens", "Whites"]);
  });

  it("is not callable by anon", async () => {
    const code = await errorCode(
      asUser(db.sql, null, (tx) => tx`select * from public.get_eligible_teams(${knockout}, ${ids.alice})`, { role: "anon" }),
    );
    expect(code).toBe("42501");
  });
});

describe("save_team_selection", () => {
  it("refuses a team that is not eligible and writes nothing", async () => {
    expect(await save(ids.alice, knockout, "Reds")).toBe("not_eligible"); // used on match day 1
    expect(await save(ids.alice, knockout, "Golds")).toBe("not_eligible"); // postponed
    expect(await save(ids.alice, knockout, "Nobody FC")).toBe("not_eligible");
    expect(await save(ids.alice, knockout, null)).toBe("not_eligible");
    expect(await picksOf(ids.alice, knockout)).toEqual([]);
  });

  it("saves a pick, and changing it before the deadline updates the one row", async () => {
    expect(await save(ids.alice, knockout, "Blues")).toBe("saved");
    let rows = await picksOf(ids.alice, knockout);
    expect(rows.map((r) => [r.selected_team, r.prediction])).toEqual([["Blues", "home_win"]]);
    expect(await save(ids.alice, knockout, "Whites")).toBe("saved");
    rows = await picksOf(ids.alice, knockout);
    expect(rows.map((r) => [r.selected_team, r.prediction, r.set_by])).toEqual([["Whites", "away_win", null]]);
    // The current match day's own pick stays eligible (the page just disables it).
    expect(await eligible(ids.alice, knockout, ids.alice)).toEqual(["Blues", "Greens", "Whites"]);
  });

  it("allows a season player to pick a team again", async () => {
    expect(await save(ids.alice, season, "Reds")).toBe("saved");
    expect((await picksOf(ids.alice, season)).map((r) => r.selected_team)).toEqual(["Reds"]);
  });

  it("answers selection_closed after the deadline and writes nothing", async () => {
    expect(await save(ids.alice, knockout, "Greens", AFTER)).toBe("selection_closed");
    expect(await save(ids.bob, knockout, "Greens", AFTER)).toBe("selection_closed");
    expect((await picksOf(ids.alice, knockout)).map((r) => r.selected_team)).toEqual(["Whites"]);
    expect(await picksOf(ids.bob, knockout)).toEqual([]);
  });

  it("answers eliminated, not_registered and not_found", async () => {
    expect(await save(ids.dave, knockout, "Blues")).toBe("eliminated");
    expect(await save(ids.carol, knockout, "Blues")).toBe("not_registered");
    expect(await save(ids.alice, "00000000-0000-4000-8000-000000000000", "Blues")).toBe("not_found");
    expect(await picksOf(ids.dave, knockout)).toEqual([]);
  });

  it("answers selection_closed for an inactive competition", async () => {
    const done = await competition("Finished Knockout", "knockout", { status: "inactive", created_by: ids.admin });
    await join(ids.bob, done);
    expect(await save(ids.bob, done, "Blues")).toBe("selection_closed");
    expect(await eligible(ids.bob, done, ids.bob)).toEqual([]);
  });

  it("gives players no direct write path to team_selections", async () => {
    const code = await errorCode(
      asUser(
        db.sql,
        ids.bob,
        (tx) => tx`
        insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
        select ${ids.bob}, ${ko2}, 2, f.id, 'Reds', 'home_win' from public.fixtures f
         where f.league = ${LEAGUE} and f.match_day = 2 and f.home_team = 'Reds'`,
        { now: BEFORE },
      ),
    );
    expect(code).toBe("42501");
  });

  itOnRealPostgres("serialises concurrent saves of one knockout player (real PostgreSQL only)", async () => {
    const clients = ["Blues", "Greens", "Reds", "Whites"].map(() => connect(db.url, { max: 1 }));
    try {
      const codes = await Promise.all(
        ["Blues", "Greens", "Reds", "Whites"].map((team, i) =>
          asUser(clients[i], ids.alice, (tx) => tx<{ code: string }[]>`select public.save_team_selection(${ko2}, ${team}) as code`, {
            now: BEFORE,
          }),
        ),
      );
      expect(codes.map((c) => c[0].code)).toEqual(["saved", "saved", "saved", "saved"]);
      const rows = await picksOf(ids.alice, ko2);
      expect(rows.length).toBe(1);
    } finally {
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    }
  });
});

describe("hidden picks", () => {
  beforeAll(async () => {
    expect(await save(ids.bob, knockout, "Greens")).toBe("saved");
  });

  it("hides another member's pick in team_selections before the deadline and reveals it at the deadline", async () => {
    // Bob is a member, not the creator (Alice created the competition and sees every pick: see below).
    const query = (now: Date) =>
      asUser(
        db.sql,
        ids.bob,
        (tx) => tx<{ user_id: string; selected_team: string }[]>`
      select user_id, selected_team from public.team_selections
       where competition_id = ${knockout} and match_day = 2 order by selected_team`,
        { now },
      );
    expect((await query(BEFORE)).map((r) => r.selected_team)).toEqual(["Greens"]);
    expect((await query(AFTER)).map((r) => r.selected_team)).toEqual(["Greens", "Whites"]);
    // The creator is a player too: before the deadline they see only their own pick (rules: Creator's Manage Selections).
    const creatorSees = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
      select selected_team from public.team_selections
       where competition_id = ${knockout} and match_day = 2 order by selected_team`,
      { now: BEFORE },
    );
    expect(creatorSees.map((r) => r.selected_team)).toEqual(["Whites"]);
    // Match day 1 is long past: Alice's old pick is visible to Bob.
    const old = await asUser(
      db.sql,
      ids.bob,
      (tx) => tx`
      select selected_team from public.team_selections where competition_id = ${knockout} and match_day = 1`,
      { now: BEFORE },
    );
    expect(old.map((r) => r.selected_team)).toEqual(["Reds"]);
  });

  it("never shows picks to a non-member, even after the deadline", async () => {
    const rows = await asUser(
      db.sql,
      ids.carol,
      (tx) => tx`
      select selected_team from public.team_selections where competition_id = ${knockout}`,
      { now: AFTER },
    );
    expect(rows).toEqual([]);
  });

  it("hides them in user_competition_stats_view before the deadline", async () => {
    const read = (now: Date, caller = ids.bob) =>
      asUser(
        db.sql,
        caller,
        (tx) => tx<
          {
            user_id: string;
            current_selection: string | null;
            selection_hidden: boolean;
            has_selection: boolean;
            selection_status: string;
          }[]
        >`select user_id, current_selection, selection_hidden, has_selection, selection_status
        from public.user_competition_stats_view where competition_id = ${knockout}`,
        { now },
      );
    const before = await read(BEFORE);
    const byUser = (rows: typeof before, id: string) => rows.find((r) => r.user_id === id)!;
    expect(byUser(before, ids.bob)).toMatchObject({
      current_selection: "Greens",
      selection_hidden: false,
      has_selection: true,
      selection_status: "active",
    });
    expect(byUser(before, ids.alice)).toMatchObject({ current_selection: null, selection_hidden: true, has_selection: false });
    expect(byUser(before, ids.dave)).toMatchObject({ current_selection: null, selection_status: "eliminated" });
    const after = await read(AFTER);
    expect(byUser(after, ids.alice)).toMatchObject({
      current_selection: "Whites",
      selection_hidden: false,
      has_selection: true,
      selection_status: "closed",
    });
    expect(byUser(after, ids.bob)).toMatchObject({ current_selection: "Greens", selection_status: "closed" });
    // The creator is a player too: no other member's pick before the deadline (Manage Selections reads
    // public.manage_selections, which says only whether they picked).
    const creator = await read(BEFORE, ids.alice);
    expect(byUser(creator, ids.bob)).toMatchObject({ current_selection: null, selection_hidden: true });
  });

  it("hides them in knockout_leaderboard_view before the deadline", async () => {
    const read = (caller: string, now: Date) =>
      asUser(
        db.sql,
        caller,
        (tx) => tx<
          { user_id: string; current_selection: string | null; selection_hidden: boolean }[]
        >`select user_id, current_selection, selection_hidden from public.knockout_leaderboard_view
       where competition_id = ${knockout}`,
        { now },
      );
    const before = await read(ids.bob, BEFORE);
    expect(before.find((r) => r.user_id === ids.alice)).toMatchObject({ current_selection: null, selection_hidden: true });
    expect(before.find((r) => r.user_id === ids.bob)).toMatchObject({ current_selection: "Greens", selection_hidden: false });
    const after = await read(ids.bob, AFTER);
    expect(after.find((r) => r.user_id === ids.alice)).toMatchObject({ current_selection: "Whites", selection_hidden: false });
  });
});

describe("Manage Selections before the deadline (the creator is a player too)", () => {
  const manage = (caller: string, now: Date) =>
    asUser(
      db.sql,
      caller,
      (tx) => tx<{ user_id: string; has_selection: boolean; current_selection: string | null }[]>`
    select user_id, has_selection, current_selection from public.manage_selections(${knockout})`,
      { now },
    );

  it("shows the creator Picked / Not picked yet but never the team; the team after the deadline; nothing to others", async () => {
    const before = await manage(ids.alice, BEFORE);
    const bob = before.find((r) => r.user_id === ids.bob);
    expect(bob).toMatchObject({ has_selection: true, current_selection: null });
    expect(before.find((r) => r.user_id === ids.dave)).toMatchObject({ has_selection: false, current_selection: null });
    expect(before.every((r) => r.current_selection === null)).toBe(true);
    const after = await manage(ids.alice, AFTER);
    expect(after.find((r) => r.user_id === ids.bob)).toMatchObject({ has_selection: true, current_selection: "Greens" });
    // A member who is not the creator gets no rows at all.
    expect(await manage(ids.bob, AFTER)).toEqual([]);
  });

  it("refuses to replace a member's pick before the deadline ('already_picked'), and leaves it as it was", async () => {
    expect(await setFor(ids.alice, knockout, ids.bob, "Blues", BEFORE)).toBe("already_picked");
    expect((await picksOf(ids.bob, knockout)).map((r) => r.selected_team)).toEqual(["Greens"]);
  });
});

describe("set_player_selection (Manage Selections)", () => {
  it("lets the creator set a member's pick after the deadline, recording who and when", async () => {
    expect(await setFor(ids.alice, knockout, ids.bob, "Blues")).toBe("saved");
    const [row] = await picksOf(ids.bob, knockout);
    expect(row).toMatchObject({ selected_team: "Blues", prediction: "home_win", set_by: ids.alice });
    expect(row.set_at?.toISOString()).toBe(AFTER.toISOString());
    expect((await picksOf(ids.bob, knockout)).length).toBe(1);
  });

  it("lets the creator set a pick for a member who has none yet", async () => {
    const [{ n }] =
      await db.sql`select count(*)::int as n from public.team_selections where user_id = ${ids.dave} and competition_id = ${knockout}`;
    expect(n).toBe(0);
    expect(await setFor(ids.alice, knockout, ids.dave, "Whites")).toBe("saved");
    expect((await picksOf(ids.dave, knockout)).map((r) => [r.selected_team, r.set_by])).toEqual([["Whites", ids.alice]]);
  });

  it("refuses other members, even for their own pick", async () => {
    expect(await setFor(ids.bob, knockout, ids.alice, "Greens")).toBe("forbidden");
    expect(await setFor(ids.bob, knockout, ids.bob, "Greens")).toBe("forbidden");
    expect((await picksOf(ids.alice, knockout)).map((r) => r.selected_team)).toEqual(["Whites"]);
  });

  it("lets an admin set a pick", async () => {
    expect(await setFor(ids.admin, knockout, ids.bob, "Reds")).toBe("saved");
    expect((await picksOf(ids.bob, knockout)).map((r) => [r.selected_team, r.set_by])).toEqual([["Reds", ids.admin]]);
  });

  it("answers no_fixture, not_registered and not_found", async () => {
    expect(await setFor(ids.alice, knockout, ids.bob, "Nobody FC")).toBe("no_fixture");
    expect(await setFor(ids.alice, knockout, ids.carol, "Blues")).toBe("not_registered");
    expect(await setFor(ids.alice, "00000000-0000-4000-8000-000000000000", ids.bob, "Blues")).toBe("not_found");
    expect((await picksOf(ids.bob, knockout)).map((r) => r.selected_team)).toEqual(["Reds"]);
  });

  it("clears set_by when the player later changes the pick themselves", async () => {
    expect(await setFor(ids.alice, season, ids.bob, "Blues")).toBe("forbidden"); // season is the admin's
    expect(await setFor(ids.admin, season, ids.bob, "Blues", BEFORE)).toBe("saved");
    expect(await save(ids.bob, season, "Greens")).toBe("saved");
    expect((await picksOf(ids.bob, season)).map((r) => [r.selected_team, r.set_by, r.set_at])).toEqual([["Greens", null, null]]);
  });
});

describe("registration key", () => {
  it("cannot be selected from competitions by a player", async () => {
    const code = await errorCode(
      asUser(db.sql, ids.bob, (tx) => tx`select registration_key from public.competitions where id = ${knockout}`),
    );
    expect(code).toBe("42501");
  });

  it("is returned by competition_registration_key only to the creator and admins", async () => {
    const key = async (caller: string) =>
      (await asUser(db.sql, caller, (tx) => tx`select public.competition_registration_key(${knockout}) as k`))[0].k;
    const [{ registration_key }] = await db.sql`select registration_key from public.competitions where id = ${knockout}`;
    expect(registration_key).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await key(ids.alice)).toBe(registration_key);
    expect(await key(ids.admin)).toBe(registration_key);
    expect(await key(ids.bob)).toBeNull();
    expect(await key(ids.carol)).toBeNull();
  });
});
