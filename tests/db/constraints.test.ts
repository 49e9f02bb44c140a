/**
 * Constraints and the invariants kept by triggers: enum values, uniqueness, player_count, matchdays,
 * registration keys and pick/fixture consistency.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompetition, createFixtures, createPlayer } from "../support/factories";
import { connect, errorCode, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

const LEAGUE = "Constraint League";
const SEASON = "2025/26";
const KICKOFF = new Date("2026-04-04T14:00:00Z");
let players: string[] = [];
let fixtureIds: Record<string, string> = {};
/** An account without a profile, for profile inserts that must fail. */
const SPARE_ACCOUNT = "00000000-0000-4000-8000-0000000000a1";

async function newPlayer(username: string): Promise<string> {
  return (await createPlayer(db.sql, { username, dateOfBirth: "1985-01-01", gender: "male" })).id;
}

async function newCompetition(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { id } = await createCompetition(db.sql, {
    name,
    league: LEAGUE,
    season: SEASON,
    startDate: "2026-04-01",
    startMatchDay: 1,
    columns: extra,
  });
  return id;
}

const count = async (competitionId: string) =>
  (await db.sql<{ player_count: number }[]>`select player_count from public.competitions where id = ${competitionId}`)[0].player_count;

beforeAll(async () => {
  db = await useTestDatabase();
  players = [];
  await db.sql`insert into account.accounts (id, email, password_hash) values (${SPARE_ACCOUNT}, 'spare@example.test', 'x')`;
  for (let i = 0; i < 24; i++) players.push(await newPlayer(`Player${i}`));
  const rows = await createFixtures(db.sql, LEAGUE, SEASON, [
    { matchDay: 1, kickoff: KICKOFF, home: "Lions", away: "Tigers" },
    { matchDay: 1, kickoff: new Date(KICKOFF.getTime() + 3 * 3_600_000), home: "Bears", away: "Wolves" },
    { matchDay: 2, kickoff: new Date(KICKOFF.getTime() + 7 * 86_400_000), home: "Tigers", away: "Bears" },
  ]);
  fixtureIds = Object.fromEntries(rows.map((r) => [r.home_team, r.id]));
});

afterAll(async () => {
  await db?.close();
});

describe("enum-like columns reject unknown values", () => {
  it.each([
    ["competitions.type", () => newCompetition("Bad type", { type: "league" })],
    ["competitions.status", () => newCompetition("Bad status", { status: "paused" })],
    ["competitions.registration_status", () => newCompetition("Bad reg", { registration_status: "pending" })],
    ["competitions.visibility", () => newCompetition("Bad vis", { visibility: "secret" })],
    ["competitions.total_match_days", () => newCompetition("Too long", { total_match_days: 61 })],
    ["competitions.current_match_day", () => newCompetition("Past end", { total_match_days: 10, current_match_day: 11 })],
    ["competitions.start_match_day", () => newCompetition("Zero start", { start_match_day: 0 })],
    ["competitions.registration_key format", () => newCompetition("Bad key", { visibility: "private", registration_key: "abc12" })],
    [
      "profiles.gender",
      () => db.sql`
      insert into public.profiles (id, username, date_of_birth, gender)
      values (${SPARE_ACCOUNT}, 'Gender1', '1990-01-01', 'robot')`,
    ],
    [
      "profiles.gender self-describe without text",
      () => db.sql`
      insert into public.profiles (id, username, date_of_birth, gender)
      values (${SPARE_ACCOUNT}, 'Gender2', '1990-01-01', 'self-describe')`,
    ],
    [
      "profiles.gender_self_describe over 50 characters",
      () => db.sql`
      insert into public.profiles (id, username, date_of_birth, gender, gender_self_describe)
      values (${SPARE_ACCOUNT}, 'Gender3', '1990-01-01', 'self-describe', ${"x".repeat(51)})`,
    ],
    [
      "profiles.gender_self_describe with another gender",
      () => db.sql`
      insert into public.profiles (id, username, date_of_birth, gender, gender_self_describe)
      values (${SPARE_ACCOUNT}, 'Gender4', '1990-01-01', 'male', 'Something')`,
    ],
    [
      "profiles.username format",
      () => db.sql`
      insert into public.profiles (id, username, date_of_birth, gender)
      values (${SPARE_ACCOUNT}, 'no spaces allowed', '1990-01-01', 'male')`,
    ],
    ["profiles.role", () => db.sql`update public.profiles set role = 'superuser' where id = ${players[0]}`],
    ["fixtures.status", () => db.sql`update public.fixtures set status = 'abandoned' where id = ${fixtureIds.Lions}`],
    [
      "fixtures score over 30",
      () => db.sql`
      update public.fixtures set home_score = 31, away_score = 0, result = 'home_win', status = 'complete' where id = ${fixtureIds.Lions}`,
    ],
    [
      "fixtures result not matching the score",
      () => db.sql`
      update public.fixtures set home_score = 0, away_score = 2, result = 'home_win', status = 'complete' where id = ${fixtureIds.Lions}`,
    ],
    ["fixtures complete without a result", () => db.sql`update public.fixtures set status = 'complete' where id = ${fixtureIds.Lions}`],
    ["tickets.ticket_type", () => db.sql`insert into public.tickets (user_id, ticket_type) values (${players[0]}, 'golden')`],
    [
      "footycoach ticket without a target competition",
      () => db.sql`
      insert into public.tickets (user_id, ticket_type) values (${players[0]}, 'footycoach')`,
    ],
    [
      "user_selections.status",
      () =>
        newCompetition("Status check").then(
          (c) => db.sql`
      insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
      values (${players[0]}, ${c}, ${LEAGUE}, ${SEASON}, 1, 'winner')`,
        ),
    ],
    [
      "eliminated without knocked_out_on",
      () =>
        newCompetition("Elim check").then(
          (c) => db.sql`
      insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
      values (${players[0]}, ${c}, ${LEAGUE}, ${SEASON}, 1, 'eliminated')`,
        ),
    ],
    [
      "push_subscriptions.kind",
      () => db.sql`
      insert into public.push_subscriptions (user_id, kind, fcm_token) values (${players[0]}, 'sms', 'x')`,
    ],
    [
      "reminder_log.kind",
      () =>
        newCompetition("Reminder check").then(
          (c) => db.sql`
      insert into public.reminder_log (user_id, competition_id, match_day, kind) values (${players[0]}, ${c}, 1, '1h')`,
        ),
    ],
    [
      "account email in upper case",
      () => db.sql`
      insert into account.accounts (email, password_hash) values ('Upper@Example.test', 'x')`,
    ],
    ["auth_attempts.kind", () => db.sql`insert into account.auth_attempts (key, kind, success) values ('k', 'magic-link', false)`],
    [
      "session id that is not a sha256",
      () => db.sql`
      insert into account.sessions (id, user_id, expires_at) values ('plain-token', ${players[0]}, now() + interval '1 day')`,
    ],
  ])("%s", async (_label, attempt) => {
    expect(await errorCode(attempt())).toBe("23514");
  });
});

describe("uniqueness", () => {
  it("allows one membership per player and competition", async () => {
    const competition = await newCompetition("Unique members");
    await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                 values (${players[1]}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
    const again = await errorCode(db.sql`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      values (${players[1]}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`);
    expect(again).toBe("23505");
    expect(await count(competition)).toBe(1);
  });

  it("allows one pick per player, competition and match day", async () => {
    const competition = await newCompetition("Unique picks");
    await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                 values (${players[2]}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
    await db.sql`insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
                 values (${players[2]}, ${competition}, 1, ${fixtureIds.Lions}, 'Lions', 'home_win')`;
    const again = await errorCode(db.sql`
      insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
      values (${players[2]}, ${competition}, 1, ${fixtureIds.Bears}, 'Wolves', 'away_win')`);
    expect(again).toBe("23505");
  });

  it("rejects a username that differs only in case", async () => {
    const [{ id }] = await db.sql`insert into account.accounts (email, password_hash) values ('case@example.test', 'x') returning id`;
    const code = await errorCode(db.sql`
      insert into public.profiles (id, username, date_of_birth, gender) values (${id}, 'PLAYER0', '1990-01-01', 'male')`);
    expect(code).toBe("23505");
  });

  it("rejects a second account with the same email and a competition with the same name and type", async () => {
    expect(await errorCode(db.sql`insert into account.accounts (email, password_hash) values ('player0@example.test', 'x')`)).toBe("23505");
    await newCompetition("Twin");
    expect(await errorCode(newCompetition(" twin "))).toBe("23505");
    await newCompetition("Twin", { type: "season" }); // same name, other type: fine
  });

  it("rejects a second unused FootyCoach ticket for the same competition and a second referral of one account", async () => {
    const scout = await newCompetition("Scout unique", { type: "scout" });
    // the database granted every player one on creation: a second unused one is refused
    const [{ n }] = await db.sql`
      select count(*)::int as n from public.tickets where user_id = ${players[3]} and target_competition_id = ${scout} and not used`;
    expect(n).toBe(1);
    expect(
      await errorCode(db.sql`
      insert into public.tickets (user_id, ticket_type, target_competition_id) values (${players[3]}, 'footycoach', ${scout})`),
    ).toBe("23505");
    await db.sql`insert into public.referrals (referrer_id, referred_id) values (${players[3]}, ${players[4]})`;
    expect(
      await errorCode(db.sql`
      insert into public.referrals (referrer_id, referred_id) values (${players[5]}, ${players[4]})`),
    ).toBe("23505");
  });

  it("rejects an eleventh scout entry index and a second prediction for the same fixture", async () => {
    const scout = await newCompetition("Scout entries", { type: "scout" });
    const [entry] = await db.sql`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index)
      values (${scout}, ${players[6]}, 1, '', '', 9) returning id, league`;
    expect(entry.league).toBe(LEAGUE);
    expect(
      await errorCode(db.sql`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index)
      values (${scout}, ${players[6]}, 1, '', '', 10)`),
    ).toBe("23514");
    await db.sql`insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals) values (${entry.id}, ${fixtureIds.Lions}, 1, 1)`;
    expect(
      await errorCode(db.sql`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals) values (${entry.id}, ${fixtureIds.Lions}, 2, 1)`),
    ).toBe("23505");
    expect(
      await errorCode(db.sql`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals) values (${entry.id}, ${fixtureIds.Bears}, 10, 1)`),
    ).toBe("23514");
    const knockout = await newCompetition("Not scout");
    expect(
      await errorCode(db.sql`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index)
      values (${knockout}, ${players[6]}, 1, '', '', 0)`),
    ).toBe("23514");
  });
});

describe("team selections match their fixture", () => {
  it("derives the prediction from the side and refuses a team without a fixture that match day", async () => {
    const competition = await newCompetition("Pick checks");
    await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                 values (${players[7]}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
    const [pick] = await db.sql`
      insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
      values (${players[7]}, ${competition}, 1, ${fixtureIds.Lions}, 'Tigers', 'home_win') returning prediction`;
    expect(pick.prediction).toBe("away_win");
    const wrongTeam = await errorCode(db.sql`
      update public.team_selections set selected_team = 'Bears' where user_id = ${players[7]} and competition_id = ${competition}`);
    expect(wrongTeam).toBe("23514");
    const wrongMatchDay = await errorCode(db.sql`
      update public.team_selections set fixture_id = ${fixtureIds.Tigers}, selected_team = 'Tigers'
       where user_id = ${players[7]} and competition_id = ${competition}`);
    expect(wrongMatchDay).toBe("23514");
    const notMember = await errorCode(db.sql`
      insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
      values (${players[8]}, ${competition}, 1, ${fixtureIds.Lions}, 'Lions', 'home_win')`);
    expect(notMember).toBe("23503");
  });
});

describe("player_count", () => {
  it("follows memberships as they are added and removed", async () => {
    const competition = await newCompetition("Counting");
    expect(await count(competition)).toBe(0);
    for (const p of players.slice(0, 5)) {
      await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                   values (${p}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
    }
    expect(await count(competition)).toBe(5);
    await db.sql`delete from public.user_selections where competition_id = ${competition} and user_id = ${players[0]}`;
    expect(await count(competition)).toBe(4);
    await db.sql`delete from public.user_selections where competition_id = ${competition} and user_id in ${db.sql(players.slice(1, 3))}`;
    expect(await count(competition)).toBe(2);
    // Deleting a player's profile (and so their memberships) updates the count too.
    await db.sql`delete from account.accounts where id = ${players[3]}`;
    expect(await count(competition)).toBe(1);
    players.splice(3, 1);
  });

  // PGlite's socket server multiplexes connections onto one session message by message, so concurrent
  // clients outside a transaction can interleave their extended-protocol messages: a real server is needed.
  itOnRealPostgres("stays exact when many players join at the same time (real PostgreSQL only)", async () => {
    const competition = await newCompetition("Rush");
    const joiners = players.slice(0, 20);
    const clients = joiners.map(() => connect(db.url, { max: 1 }));
    try {
      await Promise.all(
        joiners.map((p, i) =>
          clients[i].begin(async (tx) => {
            await tx`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                   values (${p}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
          }),
        ),
      );
      expect(await count(competition)).toBe(20);
      await Promise.all(
        joiners.slice(0, 10).map(
          (p, i) => clients[i]`
          delete from public.user_selections where competition_id = ${competition} and user_id = ${p}`,
        ),
      );
      expect(await count(competition)).toBe(10);
      const [{ n }] = await db.sql`select count(*)::int as n from public.user_selections where competition_id = ${competition}`;
      expect(n).toBe(10);
    } finally {
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
    }
  });

  it("survives deleting a competition with members", async () => {
    const competition = await newCompetition("Doomed");
    await db.sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                 values (${players[0]}, ${competition}, ${LEAGUE}, ${SEASON}, 1)`;
    const result = await db.sql`delete from public.competitions where id = ${competition}`;
    expect(result.count).toBe(1);
  });
});

describe("matchdays", () => {
  const firstKickoff = async (md: number) => {
    const rows = await db.sql<{ t: Date }[]>`
      select first_kickoff_time as t from public.matchdays where league = ${LEAGUE} and season = ${SEASON} and match_day = ${md}`;
    return rows[0]?.t.toISOString() ?? null;
  };

  it("holds the earliest kickoff of each match day as fixtures come, move and go", async () => {
    expect(await firstKickoff(1)).toBe(KICKOFF.toISOString());
    const [early] = await db.sql`
      insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
      values (${LEAGUE}, ${SEASON}, 1, '2026-04-03T19:45:00Z', 'Foxes', 'Hawks') returning id`;
    expect(await firstKickoff(1)).toBe("2026-04-03T19:45:00.000Z");
    await db.sql`update public.fixtures set kickoff_time = '2026-04-05T16:30:00Z' where id = ${early.id}`;
    expect(await firstKickoff(1)).toBe(KICKOFF.toISOString());
    await db.sql`update public.fixtures set match_day = 4 where id = ${early.id}`;
    expect(await firstKickoff(4)).toBe("2026-04-05T16:30:00.000Z");
    await db.sql`delete from public.fixtures where id = ${early.id}`;
    expect(await firstKickoff(4)).toBeNull();
    expect(await firstKickoff(1)).toBe(KICKOFF.toISOString());
  });

  it("keeps competitions.first_kickoff_time equal to its start match day's first kickoff", async () => {
    const competition = await newCompetition("Kickoff follower", { start_match_day: 2, current_match_day: 2 });
    const read = async () =>
      (await db.sql`select first_kickoff_time as t from public.competitions where id = ${competition}`)[0].t?.toISOString() ?? null;
    expect(await read()).toBe(new Date(KICKOFF.getTime() + 7 * 86_400_000).toISOString());
    await db.sql`update public.fixtures set kickoff_time = '2026-04-10T18:00:00Z' where id = ${fixtureIds.Tigers}`;
    expect(await read()).toBe("2026-04-10T18:00:00.000Z");
    await db.sql`update public.competitions set start_match_day = 1 where id = ${competition}`;
    expect(await read()).toBe(KICKOFF.toISOString());
  });

  it("gives the deadline as first kickoff minus one hour", async () => {
    const [{ deadline }] = await db.sql`select public.matchday_deadline(${LEAGUE}, ${SEASON}, 1) as deadline`;
    expect(deadline.toISOString()).toBe(new Date(KICKOFF.getTime() - 3_600_000).toISOString());
    const [{ none }] = await db.sql`select public.matchday_deadline(${LEAGUE}, ${SEASON}, 30) as none`;
    expect(none).toBeNull();
  });

  it("says a match day is closed from its deadline on, on the request clock, and while it has no fixtures", async () => {
    const deadline = KICKOFF.getTime() - 3_600_000;
    const at = async (time: number, matchDay = 1) =>
      db.sql.begin(async (tx) => {
        await tx`select set_config('app.now', ${new Date(time).toISOString()}, true)`;
        return (
          await tx`
          select public.matchday_closed(${LEAGUE}, ${SEASON}, ${matchDay}) as closed,
                 public.matchday_deadline_passed(${LEAGUE}, ${SEASON}, ${matchDay}) as passed`
        )[0];
      });
    expect(await at(deadline - 60_000)).toEqual({ closed: false, passed: false });
    expect(await at(deadline)).toEqual({ closed: true, passed: true });
    // Match day 30 has no fixtures (deadline TBA). matchday_closed used to say false here ("open"), while
    // save_team_selection refused picks: decided in 20261123300000 (decision 011) that nothing to pick means
    // closed, so matchday_closed = not selection_open is true. The deadline itself has not passed: picks stay
    // hidden and a competition starting on it keeps its registration open (matchday_deadline_passed).
    expect(await at(deadline + 60_000, 30)).toEqual({ closed: true, passed: false });
  });
});

describe("registration keys", () => {
  it("generates a key for private competitions and drops it when made public", async () => {
    const competition = await newCompetition("Keyed", { visibility: "private" });
    const [{ registration_key: key }] = await db.sql`select registration_key from public.competitions where id = ${competition}`;
    expect(key).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    await db.sql`update public.competitions set visibility = 'public' where id = ${competition}`;
    const [{ registration_key: after }] = await db.sql`select registration_key from public.competitions where id = ${competition}`;
    expect(after).toBeNull();
    const publicWithKey = await newCompetition("Public with key", { registration_key: "ABCDEFGH" });
    const [{ registration_key: dropped }] = await db.sql`select registration_key from public.competitions where id = ${publicWithKey}`;
    expect(dropped).toBeNull();
  });

  it("keeps the key-iff-private rule as a constraint too", async () => {
    const [{ def }] = await db.sql`
      select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'competitions_registration_key_iff_private'`;
    expect(def).toMatch(/visibility = 'private'.*registration_key IS NOT NULL/);
  });
});
