/**
 * History and seasons (decision 030), part 2: the next season of an ended private competition
 * (public.start_next_season: a new key, the previous members noticed and pushed, nobody joined without their tap;
 * public.join_next_season: the one-tap join) and who may export a competition (public.can_export_competition)
 * with what the picks export reads (public.revealed_picks: never a hidden pick, also for an admin).
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, addPick, createCompetition, createLeague, createPlayer } from "../support/factories";
import { asUser, errorCode, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const LEAGUE = "History Seasons League";
const SEASON = "2025/26";
const DAY = 86_400_000;
const MD1 = new Date("2027-03-06T14:00:00Z"); // first kickoff of match day 1; match days a week apart
const NOW = new Date(MD1.getTime() + 4 * DAY); // match day 1 played, match day 2's deadline ahead
const ids = {} as Record<"amy" | "bob" | "cat" | "dan" | "admin", string>;
let ended: { id: string; key: string };
let running: string;

const call = <T>(who: string | null, query: (tx: postgres.TransactionSql) => Promise<T>) => asUser(db.sql, who, query, { now: NOW });

const start = (who: string, competitionId: string, matchDay: number, season: string | null = null) =>
  call(
    who,
    (tx) =>
      tx<
        { code: string; competition_id: string | null }[]
      >`select * from public.start_next_season(${competitionId}, ${matchDay}, ${season})`,
  );

const joinNext = async (who: string, competitionId: string) =>
  (await call(who, (tx) => tx<{ code: string }[]>`select public.join_next_season(${competitionId}) as code`))[0].code;

beforeAll(async () => {
  db = await useTestDatabase();
  for (const name of ["amy", "bob", "cat", "dan"] as const) ids[name] = (await createPlayer(db.sql, { username: `${name}_h` })).id;
  ids.admin = (await createPlayer(db.sql, { username: "boss_h", role: "admin" })).id;
  await createLeague(db.sql, {
    league: LEAGUE,
    season: SEASON,
    matchDays: 4,
    firstKickoff: MD1,
    pairs: [
      ["Ajax", "Bolton"],
      ["Celtic", "Derby"],
    ],
  });
  // where a player's own new competition goes (Premier League 2025/26): match day 3 open at NOW
  await createLeague(db.sql, { league: "Premier League", season: SEASON, matchDays: 3, firstKickoff: MD1, pairs: [["Ajax", "Bolton"]] });

  // Amy's private knockout, ended on match day 1 (her win); bob and Cat were in it. bob has notifications on.
  const c = await createCompetition(db.sql, {
    name: "Friday League",
    league: LEAGUE,
    season: SEASON,
    totalMatchDays: 4,
    visibility: "private",
    createdBy: ids.amy,
    status: "inactive",
    registrationStatus: "completed",
    knockoutWinner: ids.amy,
  });
  ended = { id: c.id, key: c.registrationKey! };
  for (const who of ["amy", "bob", "cat"] as const)
    await addMember(db.sql, c.id, ids[who], {
      status: who === "amy" ? "completed" : undefined,
      knockedOutOn: who === "amy" ? undefined : 1,
    });
  await db.sql`update public.profiles set notifications_enabled = true where id = ${ids.bob}`;
  await db.sql`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
               values (${ids.bob}, 'webpush', 'https://fcm.googleapis.com/fcm/send/next-season', 'BKey', 'auth')`;

  // Amy's private knockout still being played: match day 1 revealed, match day 2 picks hidden until its deadline.
  running = (
    await createCompetition(db.sql, {
      league: LEAGUE,
      season: SEASON,
      visibility: "private",
      createdBy: ids.amy,
      currentMatchDay: 2,
      registrationStatus: "closed",
    })
  ).id;
  for (const who of ["amy", "bob", "cat"] as const) await addMember(db.sql, running, ids[who], { matchDay: 1 });
  for (const [who, md, team] of [
    ["amy", 1, "Ajax"],
    ["bob", 1, "Celtic"],
    ["amy", 2, "Bolton"],
    ["bob", 2, "Derby"],
  ] as const)
    await addPick(db.sql, { userId: ids[who], competitionId: running, matchDay: md, team });
});

afterAll(async () => {
  await db?.close();
});

describe("starting the next season", () => {
  it("offers the creator the coming match days of the same season, and nobody else any", async () => {
    const days = await call(
      ids.amy,
      (tx) => tx<{ season: string; match_day: number }[]>`select season, match_day from public.next_season_start_days(${ended.id})`,
    );
    expect(days).toEqual([2, 3, 4].map((match_day) => ({ season: SEASON, match_day })));
    expect(await call(ids.bob, (tx) => tx`select * from public.next_season_start_days(${ended.id})`)).toEqual([]);
  });

  it("refuses anyone but the creator of an ended private competition, and a match day that has started", async () => {
    expect(await errorCode(start(ids.bob, ended.id, 2))).toBe("42501");
    expect(await errorCode(start(ids.admin, ended.id, 2))).toBe("42501");
    expect(await errorCode(start(ids.amy, running, 3))).toBe("42501"); // still being played
    await expect(start(ids.amy, ended.id, 1)).rejects.toThrow("Start Match Day must be a match day that has not started yet.");
    await expect(start(ids.amy, ended.id, 2, "1999/00")).rejects.toThrow("Please choose a season from the list.");
    expect(await start(ids.amy, "00000000-0000-4000-8000-000000000000", 2)).toEqual([{ code: "not_found", competition_id: null }]);
    expect(await db.sql`select 1 from public.competitions where previous_competition_id = ${ended.id}`).toEqual([]);
  });

  it("creates the same competition with a new key, invites the previous members and joins nobody but its creator", async () => {
    const [started] = await start(ids.amy, ended.id, 2);
    expect(started.code).toBe("started");
    const next = started.competition_id!;
    const [row] = await db.sql`
      select name, type, league, season, visibility, status, registration_status, start_match_day, current_match_day,
             created_by, previous_competition_id, registration_key, player_count from public.competitions where id = ${next}`;
    expect(row).toMatchObject({
      name: "Friday League",
      type: "knockout",
      league: LEAGUE,
      season: SEASON,
      visibility: "private",
      status: "active",
      registration_status: "open",
      start_match_day: 2,
      current_match_day: 2,
      created_by: ids.amy,
      previous_competition_id: ended.id,
      player_count: 1,
    });
    expect(row.registration_key).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(row.registration_key).not.toBe(ended.key);
    expect(await db.sql`select user_id from public.user_selections where competition_id = ${next}`).toEqual([{ user_id: ids.amy }]);

    const notices = await db.sql<{ user_id: string; kind: string; link: string; body: string }[]>`
      select user_id, kind, link, body from public.notices order by body, user_id`;
    expect(notices.map((n) => n.user_id).sort()).toEqual([ids.bob, ids.cat].sort());
    for (const n of notices) {
      expect(n).toMatchObject({ kind: "next_season", link: `/competition/${next}` });
      expect(n.body).toBe(`amy_h started the next season of Friday League (${LEAGUE} ${SEASON}, from Match Day 2). Join with one tap.`);
    }
    const pushes = await db.sql`select user_id, kind, link from private.push_deliveries`;
    expect(pushes).toEqual([{ user_id: ids.bob, kind: "notice", link: `/competition/${next}` }]);

    // a second press: the same next season, nothing new
    expect(await start(ids.amy, ended.id, 3)).toEqual([{ code: "already_started", competition_id: next }]);
    expect(await db.sql`select count(*)::int as n from public.notices`).toEqual([{ n: 2 }]);
    // the name stays taken for a new competition
    const fresh = call(
      ids.dan,
      (tx) =>
        tx`select * from public.create_private_competition('friday league', 'knockout', 'Premier League', ${SEASON}, '2027-03-10', 3)`,
    );
    await expect(fresh).rejects.toThrow("A competition with this name and type already exists.");

    const history = (who: string) => call(who, (tx) => tx`select * from public.competition_history(${ended.id})`);
    expect((await history(ids.amy))[0]).toMatchObject({
      can_start_next_season: false,
      next_competition_id: next,
      next_competition_name: "Friday League",
      can_export: true,
    });
    const [invite] = await call(ids.cat, (tx) => tx`select invited from public.competition_history(${next})`);
    expect(invite).toEqual({ invited: true });
  });

  it("lets an invited player join with one tap, without the key, and nobody else", async () => {
    const [{ id: next }] = await db.sql<{ id: string }[]>`select id from public.competitions where previous_competition_id = ${ended.id}`;
    expect(await joinNext(ids.dan, next)).toBe("not_invited");
    expect(await call(ids.cat, (tx) => tx<{ code: string }[]>`select public.join_competition(${next}) as code`)).toEqual([
      { code: "invalid_key" },
    ]);
    expect(await joinNext(ids.bob, next)).toBe("joined");
    expect(await joinNext(ids.bob, next)).toBe("already_joined");
    const members = await db.sql<
      { user_id: string }[]
    >`select user_id from public.user_selections where competition_id = ${next} order by joined_at`;
    expect(members.map((m) => m.user_id).sort()).toEqual([ids.amy, ids.bob].sort());
    const read = await db.sql<{ user_id: string; read: boolean }[]>`select user_id, read_at is not null as read from public.notices`;
    expect(Object.fromEntries(read.map((r) => [r.user_id, r.read]))).toEqual({ [ids.bob]: true, [ids.cat]: false });
    // registration closes at the start match day's deadline: the invitation then no longer joins
    const late = new Date(MD1.getTime() + 7 * DAY - 30 * 60_000);
    const code = await asUser(db.sql, ids.cat, (tx) => tx<{ code: string }[]>`select public.join_next_season(${next}) as code`, {
      now: late,
    });
    expect(code).toEqual([{ code: "registration_closed" }]);
  });
});

describe("who may export, and what the picks export reads", () => {
  it("lets the creator and admins export, not a member, a non-member or a crafted id", async () => {
    const can = async (who: string, id: string) =>
      (await call(who, (tx) => tx<{ ok: boolean }[]>`select public.can_export_competition(${id}) as ok`))[0].ok;
    expect(await can(ids.amy, running)).toBe(true);
    expect(await can(ids.admin, running)).toBe(true);
    expect(await can(ids.bob, running)).toBe(false);
    expect(await can(ids.dan, running)).toBe(false);
    expect(await can(ids.amy, "00000000-0000-4000-8000-000000000000")).toBe(false);
  });

  it("never returns a pick of a match day whose deadline has not passed, also to an admin who may read it", async () => {
    const picks = (who: string) =>
      call(
        who,
        (tx) =>
          tx<
            { match_day: number; team: string }[]
          >`select match_day, team from public.revealed_picks(${running}) order by match_day, sort_name`,
      );
    const revealed = [
      { match_day: 1, team: "Ajax" },
      { match_day: 1, team: "Celtic" },
    ];
    expect(await picks(ids.admin)).toEqual(revealed);
    expect(await picks(ids.amy)).toEqual(revealed);
    // the admin's own policy reads the hidden picks: revealed_picks is what keeps them out of an export
    expect(
      await call(ids.admin, (tx) => tx`select 1 from public.team_selections where competition_id = ${running} and match_day = 2`),
    ).toHaveLength(2);
    expect(await picks(ids.dan)).toEqual([]);
  });
});
