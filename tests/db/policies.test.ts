/**
 * Row-level security as players see it: each case runs in a transaction as role authenticated with
 * auth.uid() set (the server's player path), with the application clock moved where the rule depends on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createAccount, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { asUser, errorCode, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "Test League";
const SEASON = "2025/26";
const KICKOFF = new Date("2026-03-07T15:00:00Z"); // first kickoff of match day 1
const DEADLINE = new Date(KICKOFF.getTime() - 3_600_000);
const BEFORE = new Date(DEADLINE.getTime() - 60_000);
const AT = DEADLINE;
const AFTER = new Date(KICKOFF.getTime() + 3_600_000);

const ids = {} as Record<"alice" | "bob" | "carol" | "admin" | "newbie", string>;
let privateCompetitionId: string;
let publicCompetitionId: string;
let privateKey: string;

async function account(email: string): Promise<string> {
  return (await createAccount(db.sql, { email })).id;
}

/** A player with a profile (London time, born 1990-05-01). */
async function player(name: "alice" | "bob" | "carol" | "admin", username: string, role: "player" | "admin" = "player") {
  ids[name] = (
    await createPlayer(db.sql, {
      username,
      role,
      email: `${name}@example.test`,
      dateOfBirth: "1990-05-01",
      gender: "female",
      timeZone: "Europe/London",
    })
  ).id;
}

beforeAll(async () => {
  db = await useTestDatabase();
  await player("alice", "Alice");
  await player("bob", "Bob");
  await player("carol", "Carol");
  await player("admin", "Admin", "admin");
  ids.newbie = await account("newbie@example.test");

  await createFixtures(db.sql, LEAGUE, SEASON, [
    { matchDay: 1, kickoff: KICKOFF, home: "Reds", away: "Blues" },
    { matchDay: 1, kickoff: new Date(KICKOFF.getTime() + 2 * 3_600_000), home: "Greens", away: "Whites" },
    { matchDay: 2, kickoff: new Date(KICKOFF.getTime() + 7 * 86_400_000), home: "Blues", away: "Greens" },
  ]);

  const competition = { league: LEAGUE, season: SEASON, startDate: "2026-03-01", startMatchDay: 1 };
  const priv = await createCompetition(db.sql, {
    ...competition,
    name: "Alice's mates",
    type: "knockout",
    visibility: "private",
    createdBy: ids.alice,
  });
  privateCompetitionId = priv.id;
  privateKey = priv.registrationKey!;
  const pub = await createCompetition(db.sql, { ...competition, name: "Open Season", type: "season", createdBy: ids.admin });
  publicCompetitionId = pub.id;

  // Alice and Bob are members of the private competition and have picked for match day 1; Carol is not a member.
  await addMember(db.sql, privateCompetitionId, ids.alice, { matchDay: 1 });
  await addMember(db.sql, privateCompetitionId, ids.bob, { matchDay: 1 });
  await addMember(db.sql, publicCompetitionId, ids.carol, { matchDay: 1 });
  await addPick(db.sql, { userId: ids.alice, competitionId: privateCompetitionId, matchDay: 1, team: "Reds" });
  await addPick(db.sql, { userId: ids.bob, competitionId: privateCompetitionId, matchDay: 1, team: "Whites" });
});

afterAll(async () => {
  await db?.close();
});

describe("profiles", () => {
  it("shows a player only their own profile row, with its private fields", async () => {
    const rows = await asUser(db.sql, ids.alice, (tx) => tx`select id, username, date_of_birth, email, time_zone from public.profiles`);
    expect(rows.map((r) => r.id)).toEqual([ids.alice]);
    expect(rows[0].email).toBe("alice@example.test");
  });

  it("never returns another player's private fields", async () => {
    const rows = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`select date_of_birth, gender, time_zone, email, fcm_token, analytics_consent from public.profiles where id = ${ids.bob}`,
    );
    expect(rows).toEqual([]);
  });

  it("lets every signed-in player read other players' usernames (player_names), and only those", async () => {
    const rows = await asUser(db.sql, ids.alice, (tx) => tx`select id, username from public.player_names order by username`);
    expect(rows.map((r) => r.username)).toEqual(["Admin", "Alice", "Bob", "Carol"]);
    const [{ columns }] = await db.sql`
      select array_agg(column_name::text order by ordinal_position) as columns
        from information_schema.columns where table_schema = 'public' and table_name = 'player_names'`;
    expect(columns).toEqual(["id", "username"]);
  });

  it("keeps player_names in step with username changes", async () => {
    await asUser(db.sql, ids.carol, (tx) => tx`update public.profiles set username = 'CarolK' where id = ${ids.carol}`);
    const [row] = await asUser(db.sql, ids.alice, (tx) => tx`select username from public.player_names where id = ${ids.carol}`);
    expect(row.username).toBe("CarolK");
  });

  it("does not let a player update another player's profile", async () => {
    const result = await asUser(db.sql, ids.alice, (tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${ids.bob}`);
    expect(result.count).toBe(0);
    const [bob] = await db.sql`select time_zone from public.profiles where id = ${ids.bob}`;
    expect(bob.time_zone).toBe("Europe/London");
  });

  it("lets a player update their own editable fields", async () => {
    const result = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`update public.profiles set notifications_enabled = true, time_zone = 'Europe/Paris' where id = ${ids.alice}`,
    );
    expect(result.count).toBe(1);
  });

  it.each([
    ["role", "'admin'"],
    ["email", "'other@example.test'"],
    ["referral_code", "'ABCDEFGH'"],
    ["id", "gen_random_uuid()"],
  ])("never lets a player change their own %s", async (column, value) => {
    const code = await errorCode(
      asUser(db.sql, ids.alice, (tx) => tx.unsafe(`update public.profiles set ${column} = ${value} where id = '${ids.alice}'`)),
    );
    expect(code).toBe("42501");
    const [row] = await db.sql`select role, email from public.profiles where id = ${ids.alice}`;
    expect(row).toEqual({ role: "player", email: "alice@example.test" });
  });

  it("lets a new player create only their own profile, with a generated referral code and role player", async () => {
    const other = await errorCode(
      asUser(
        db.sql,
        ids.newbie,
        (tx) => tx`
        insert into public.profiles (id, username, date_of_birth, gender) values (${ids.bob}, 'Sneaky', '1990-01-01', 'male')`,
      ),
    );
    expect(other).toBe("42501");
    const withRole = await errorCode(
      asUser(
        db.sql,
        ids.newbie,
        (tx) => tx`
        insert into public.profiles (id, username, date_of_birth, gender, role) values (${ids.newbie}, 'Newbie', '1990-01-01', 'male', 'admin')`,
      ),
    );
    expect(withRole).toBe("42501");
    const [created] = await asUser(
      db.sql,
      ids.newbie,
      (tx) => tx`
      insert into public.profiles (id, username, date_of_birth, gender, gender_self_describe)
      values (${ids.newbie}, 'Newbie', '1990-01-01', 'self-describe', 'Agender')
      returning email, role, referral_code`,
    );
    expect(created.email).toBe("newbie@example.test");
    expect(created.role).toBe("player");
    expect(created.referral_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });

  it("refuses a profile for someone under 18 on the application clock", async () => {
    const now = new Date("2026-06-15T12:00:00Z");
    const account17 = await account("young@example.test");
    const code = await errorCode(
      asUser(
        db.sql,
        account17,
        (tx) => tx`
        insert into public.profiles (id, username, date_of_birth, gender) values (${account17}, 'Young', '2008-06-16', 'male')`,
        { now },
      ),
    );
    expect(code).toBe("23514");
    const [ok] = await asUser(
      db.sql,
      account17,
      (tx) => tx`
      insert into public.profiles (id, username, date_of_birth, gender) values (${account17}, 'Young', '2008-06-15', 'male')
      returning id`,
      { now },
    );
    expect(ok.id).toBe(account17);
  });
});

describe("account schema", () => {
  it.each(["accounts", "sessions", "password_reset_tokens", "auth_attempts", "mail_outbox"])(
    "is not readable by a player: account.%s",
    async (table) => {
      const code = await errorCode(asUser(db.sql, ids.alice, (tx) => tx.unsafe(`select * from account.${table}`)));
      expect(code).toBe("42501");
    },
  );

  it("is not readable signed out either", async () => {
    const code = await errorCode(asUser(db.sql, null, (tx) => tx`select email from account.accounts`, { role: "anon" }));
    expect(code).toBe("42501");
  });
});

describe("hidden picks (team_selections)", () => {
  const picksSeenBy = (user: string, now: Date) =>
    asUser(
      db.sql,
      user,
      (tx) => tx<{ user_id: string; selected_team: string }[]>`
        select user_id, selected_team from public.team_selections
         where competition_id = ${privateCompetitionId} and match_day = 1 order by selected_team`,
      { now },
    );

  it("shows a player only their own pick before the deadline", async () => {
    expect(await picksSeenBy(ids.bob, BEFORE)).toEqual([{ user_id: ids.bob, selected_team: "Whites" }]);
  });

  it("hides other members' picks from the competition's creator before the deadline too (the creator is a player)", async () => {
    // Alice created the private competition (and plays in it): before the deadline she sees her own pick only.
    expect((await picksSeenBy(ids.alice, BEFORE)).map((s) => s.selected_team)).toEqual(["Reds"]);
    await addPick(db.sql, { userId: ids.carol, competitionId: publicCompetitionId, matchDay: 1, team: "Greens" });
    const seen = async (user: string) =>
      asUser(db.sql, user, (tx) => tx`select selected_team from public.team_selections where competition_id = ${publicCompetitionId}`, {
        now: BEFORE,
      });
    expect(await seen(ids.alice)).toEqual([]);
    expect(await seen(ids.bob)).toEqual([]);
    expect(await seen(ids.admin)).toEqual([{ selected_team: "Greens" }]);
    await db.sql`delete from public.team_selections where competition_id = ${publicCompetitionId}`;
  });

  it("shows the creator in the stats view only their own pick before the deadline; Manage Selections says who picked", async () => {
    const rows = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
        select username, current_selection from public.user_competition_stats_view
         where competition_id = ${privateCompetitionId} order by username`,
      { now: BEFORE },
    );
    expect(rows).toEqual([
      { username: "Alice", current_selection: "Reds" },
      { username: "Bob", current_selection: null },
    ]);
    const manage = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
        select username, has_selection, current_selection from public.manage_selections(${privateCompetitionId}) order by username`,
      { now: BEFORE },
    );
    expect(manage).toEqual([
      { username: "Alice", has_selection: true, current_selection: null },
      { username: "Bob", has_selection: true, current_selection: null },
    ]);
    const bobSees = await asUser(
      db.sql,
      ids.bob,
      (tx) => tx`
        select username, current_selection, selection_hidden from public.user_competition_stats_view
         where competition_id = ${privateCompetitionId} order by username`,
      { now: BEFORE },
    );
    expect(bobSees).toEqual([
      { username: "Alice", current_selection: null, selection_hidden: true },
      { username: "Bob", current_selection: "Whites", selection_hidden: false },
    ]);
  });

  it("reveals all picks of the match day to members from the deadline on", async () => {
    for (const now of [AT, AFTER]) {
      const seen = await picksSeenBy(ids.alice, now);
      expect(seen.map((s) => s.selected_team)).toEqual(["Reds", "Whites"]);
    }
  });

  it("does not reveal picks to a non-member, even after the deadline", async () => {
    expect(await picksSeenBy(ids.carol, AFTER)).toEqual([]);
  });

  it("shows admins every pick", async () => {
    expect((await picksSeenBy(ids.admin, BEFORE)).length).toBe(2);
  });

  it("gives players no direct way to write picks (functions do that)", async () => {
    const [fixture] = await db.sql`select id from public.fixtures where match_day = 2 and home_team = 'Blues'`;
    const insert = await errorCode(
      asUser(
        db.sql,
        ids.alice,
        (tx) => tx`
        insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
        values (${ids.alice}, ${privateCompetitionId}, 2, ${fixture.id}, 'Blues', 'home_win')`,
        { now: BEFORE },
      ),
    );
    expect(insert).toBe("42501");
    const update = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`update public.team_selections set selected_team = 'Blues' where user_id = ${ids.alice}`,
      { now: BEFORE },
    );
    expect(update.count).toBe(0);
    const del = await asUser(db.sql, ids.alice, (tx) => tx`delete from public.team_selections where user_id = ${ids.alice}`);
    expect(del.count).toBe(0);
  });
});

describe("competitions", () => {
  it("lets players list competitions without the registration key", async () => {
    const rows = await asUser(
      db.sql,
      ids.bob,
      (tx) => tx`select id, name, visibility, player_count from public.competitions order by name`,
    );
    expect(rows.map((r) => r.name)).toEqual(["Alice's mates", "Open Season"]);
  });

  it.each(["alice", "bob", "admin"] as const)("refuses the registration_key column to %s", async (who) => {
    const code = await errorCode(
      asUser(db.sql, ids[who], (tx) => tx`select registration_key from public.competitions where id = ${privateCompetitionId}`),
    );
    expect(code).toBe("42501");
    const star = await errorCode(asUser(db.sql, ids[who], (tx) => tx`select * from public.competitions`));
    expect(star).toBe("42501");
  });

  it("returns the key through competition_registration_key() to the creator and admins only", async () => {
    const keyFor = async (user: string | null) => {
      const [row] = await asUser(db.sql, user, (tx) => tx`select public.competition_registration_key(${privateCompetitionId}) as key`);
      return row.key;
    };
    expect(privateKey).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await keyFor(ids.alice)).toBe(privateKey);
    expect(await keyFor(ids.admin)).toBe(privateKey);
    expect(await keyFor(ids.bob)).toBeNull();
    expect(await keyFor(ids.carol)).toBeNull();
    expect(await keyFor(null)).toBeNull();
    const anon = await errorCode(
      asUser(db.sql, null, (tx) => tx`select public.competition_registration_key(${privateCompetitionId})`, { role: "anon" }),
    );
    expect(anon).toBe("42501");
  });

  it("lets a player create only their own private competition; admins create public ones", async () => {
    const publicByPlayer = await errorCode(
      asUser(
        db.sql,
        ids.bob,
        (tx) => tx`
        insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, created_by)
        values ('Bob public', 'knockout', ${LEAGUE}, ${SEASON}, '2026-03-01', 1, 1, ${ids.bob})`,
      ),
    );
    expect(publicByPlayer).toBe("42501");
    const forSomeoneElse = await errorCode(
      asUser(
        db.sql,
        ids.bob,
        (tx) => tx`
        insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, visibility, created_by)
        values ('Bob for Alice', 'knockout', ${LEAGUE}, ${SEASON}, '2026-03-01', 1, 1, 'private', ${ids.alice})`,
      ),
    );
    expect(forSomeoneElse).toBe("42501");
    const own = await asUser(
      db.sql,
      ids.bob,
      (tx) => tx`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, visibility, created_by)
      values ('Bob private', 'knockout', ${LEAGUE}, ${SEASON}, '2026-03-01', 1, 1, 'private', ${ids.bob})`,
    );
    expect(own.count).toBe(1);
    const adminPublic = await asUser(
      db.sql,
      ids.admin,
      (tx) => tx`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, created_by)
      values ('Admin public', 'season', ${LEAGUE}, ${SEASON}, '2026-03-01', 1, 1, ${ids.admin})`,
    );
    expect(adminPublic.count).toBe(1);
  });

  it("lets only admins update or delete competitions", async () => {
    const byCreator = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
      update public.competitions set name = 'Renamed' where id = ${privateCompetitionId}`,
    );
    expect(byCreator.count).toBe(0);
    const deleted = await asUser(db.sql, ids.alice, (tx) => tx`delete from public.competitions where id = ${privateCompetitionId}`);
    expect(deleted.count).toBe(0);
    const playerCount = await errorCode(
      asUser(db.sql, ids.admin, (tx) => tx`update public.competitions set player_count = 99 where id = ${privateCompetitionId}`),
    );
    expect(playerCount).toBe("42501");
    const byAdmin = await asUser(
      db.sql,
      ids.admin,
      (tx) => tx`
      update public.competitions set prize = 'A cup' where id = ${privateCompetitionId}`,
    );
    expect(byAdmin.count).toBe(1);
  });
});

describe("memberships", () => {
  it("lets players read memberships but not insert or delete them directly (join_competition does)", async () => {
    const rows = await asUser(
      db.sql,
      ids.carol,
      (tx) => tx`select user_id from public.user_selections where competition_id = ${privateCompetitionId}`,
    );
    expect(rows.length).toBe(2);
    const forOther = await errorCode(
      asUser(
        db.sql,
        ids.carol,
        (tx) => tx`
        insert into public.user_selections (user_id, competition_id, league, season, match_day)
        values (${ids.bob}, ${publicCompetitionId}, ${LEAGUE}, ${SEASON}, 1)`,
      ),
    );
    expect(forOther).toBe("42501");
    const removeOther = await asUser(db.sql, ids.carol, (tx) => tx`delete from public.user_selections where user_id = ${ids.alice}`);
    expect(removeOther.count).toBe(0);
    // Since 20261122200200_create_join_competition.sql players join and leave only through
    // public.join_competition / public.unregister_competition (tests/db/game-join.test.ts).
    const join = await errorCode(
      asUser(
        db.sql,
        ids.bob,
        (tx) => tx`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      values (${ids.bob}, ${publicCompetitionId}, ${LEAGUE}, ${SEASON}, 1)`,
      ),
    );
    expect(join).toBe("42501");
    const leave = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
      delete from public.user_selections where user_id = ${ids.alice} and competition_id = ${privateCompetitionId}`,
    );
    expect(leave.count).toBe(0);
  });
});

describe("fixtures, matchdays and release notes", () => {
  it("lets players read fixtures but only admins write them", async () => {
    const rows = await asUser(db.sql, ids.alice, (tx) => tx`select id from public.fixtures where league = ${LEAGUE}`);
    expect(rows.length).toBe(3);
    const insert = await errorCode(
      asUser(
        db.sql,
        ids.alice,
        (tx) => tx`
        insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
        values (${LEAGUE}, ${SEASON}, 3, now(), 'Reds', 'Greens')`,
      ),
    );
    expect(insert).toBe("42501");
    const update = await asUser(db.sql, ids.alice, (tx) => tx`update public.fixtures set kickoff_time = now() where league = ${LEAGUE}`);
    expect(update.count).toBe(0);
    const byAdmin = await asUser(
      db.sql,
      ids.admin,
      (tx) => tx`
      insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
      values (${LEAGUE}, ${SEASON}, 3, ${new Date("2026-03-21T15:00:00Z")}, 'Reds', 'Greens') returning id`,
    );
    expect(byAdmin.length).toBe(1);
    const [md] = await asUser(
      db.sql,
      ids.alice,
      (tx) => tx`
      select first_kickoff_time from public.matchdays where league = ${LEAGUE} and season = ${SEASON} and match_day = 3`,
    );
    expect(md.first_kickoff_time.toISOString()).toBe("2026-03-21T15:00:00.000Z");
    const mdWrite = await errorCode(asUser(db.sql, ids.admin, (tx) => tx`update public.matchdays set first_kickoff_time = now()`));
    expect(mdWrite).toBe("42501");
  });

  it("shows published release notes to anyone and drafts only to admins", async () => {
    await db.sql`
      insert into public.release_notes (version, title, content, is_published)
      values ('1.0.0', 'Out', 'Published note', true), ('1.1.0', 'Draft', 'Unpublished note', false)`;
    const anon = await asUser(db.sql, null, (tx) => tx`select version from public.release_notes order by version`, { role: "anon" });
    expect(anon.map((r) => r.version)).toEqual(["1.0.0"]);
    const player = await asUser(db.sql, ids.alice, (tx) => tx`select version from public.release_notes order by version`);
    expect(player.map((r) => r.version)).toEqual(["1.0.0"]);
    const admin = await asUser(db.sql, ids.admin, (tx) => tx`select version from public.release_notes order by version`);
    expect(admin.map((r) => r.version)).toEqual(["1.0.0", "1.1.0"]);
    const write = await errorCode(
      asUser(db.sql, ids.alice, (tx) => tx`insert into public.release_notes (version, title, content) values ('9', 't', 'c')`),
    );
    expect(write).toBe("42501");
    const anonWrite = await errorCode(
      asUser(db.sql, null, (tx) => tx`insert into public.release_notes (version, title, content) values ('9', 't', 'c')`, { role: "anon" }),
    );
    expect(anonWrite).toBe("42501");
  });
});

describe("own-row tables", () => {
  it("shows tickets, referrals, push subscriptions, reminders and scout entries only to their owner", async () => {
    const [scout] = await db.sql<{ id: string }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, created_by)
      values ('Scout test', 'scout', ${LEAGUE}, ${SEASON}, '2026-03-01', 1, 1, ${ids.admin}) returning id`;
    const [fixture] = await db.sql`select id from public.fixtures where match_day = 1 and home_team = 'Reds'`;
    // FootyCoach tickets: the database grants every player one for the new Scout competition
    await db.sql`insert into public.referrals (referrer_id, referred_id) values (${ids.alice}, ${ids.newbie})`;
    await db.sql`insert into public.push_subscriptions (user_id, kind, fcm_token) values (${ids.alice}, 'fcm', 'tok-a'), (${ids.bob}, 'fcm', 'tok-b')`;
    await db.sql`insert into public.reminder_log (user_id, competition_id, match_day, kind) values
      (${ids.alice}, ${privateCompetitionId}, 1, '6h'), (${ids.bob}, ${privateCompetitionId}, 1, '6h')`;
    const entries = await db.sql<{ id: string }[]>`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index)
      values (${scout.id}, ${ids.alice}, 1, '', '', 0), (${scout.id}, ${ids.bob}, 1, '', '', 0) returning id`;
    await db.sql`insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
      values (${entries[0].id}, ${fixture.id}, 2, 1), (${entries[1].id}, ${fixture.id}, 0, 0)`;

    // before match day 1 locks: afterwards other players' entries and predictions are revealed (tests/db/scout.test.ts)
    const [{ before }] = await db.sql`
      select public.matchday_deadline(${LEAGUE}, ${SEASON}, 1) - interval '1 minute' as before`;
    const seen = await asUser(
      db.sql,
      ids.bob,
      async (tx) => ({
        tickets: (await tx`select user_id from public.tickets`).map((r) => r.user_id),
        referrals: (await tx`select referrer_id from public.referrals`).length,
        push: (await tx`select fcm_token from public.push_subscriptions`).map((r) => r.fcm_token),
        reminders: (await tx`select user_id from public.reminder_log`).map((r) => r.user_id),
        entries: (await tx`select user_id from public.scout_entries`).map((r) => r.user_id),
        predictions: (await tx`select home_goals, away_goals from public.scout_predictions`).map((r) => `${r.home_goals}-${r.away_goals}`),
      }),
      { now: before as Date },
    );
    expect(seen).toEqual({
      tickets: [ids.bob],
      referrals: 0,
      push: ["tok-b"],
      reminders: [ids.bob],
      entries: [ids.bob],
      predictions: ["0-0"],
    });
    const newbieSeesReferral = await asUser(db.sql, ids.newbie, (tx) => tx`select referrer_id from public.referrals`);
    expect(newbieSeesReferral.map((r) => r.referrer_id)).toEqual([ids.alice]);
    const adminSees = await asUser(db.sql, ids.admin, (tx) => tx`select count(*)::int as n from public.tickets`);
    const [{ players }] = await db.sql`select count(*)::int as players from public.profiles`;
    expect(adminSees[0].n).toBe(players);
    const write = await errorCode(
      asUser(db.sql, ids.bob, (tx) => tx`update public.tickets set used = true, used_at = now() where user_id = ${ids.bob}`),
    );
    expect(write).toBe("42501");
  });
});
