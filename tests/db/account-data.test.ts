/**
 * "Your account and your data" (rules file; decision 029) on a real database: the download (public.my_data, through
 * the app's own model on the player path) holds everything the rules file lists and nothing of anyone else; the
 * deletion (private.delete_account, through the Account section's model) removes and keeps exactly what the rules
 * file says, in one transaction, and the last admin cannot delete their account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { createAccount as signUp, verifyLogin } from "~/models/account.server";
import { deleteAccount } from "~/models/account-settings.server";
import { myDataJson } from "~/models/my-data.server";
import { createAdmin, createPlayer, type Sql } from "../support/factories";
import { asUser, useTestDatabase } from "../support/pg";
import { arrangeEverything, PASSWORD, sessionOf, type Arranged } from "./account-support";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
});

afterAll(async () => {
  await db?.close();
});

const server = () => createDb(db.url, new Date());
const address = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** The download as the Worker makes it: the session check, then the one function call, in one transaction. */
async function download(userId: string, sessionId: string): Promise<string> {
  const d = server();
  expect((await d.authenticate(sessionId))?.id).toBe(userId);
  const text = await myDataJson(d, userId);
  await d.finish();
  return text;
}

const count = async (query: Promise<{ n: number }[]>) => (await query)[0].n;

describe("the download (public.my_data)", () => {
  let a: Arranged;
  let text: string;
  let data: Record<string, unknown> & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    a = await arrangeEverything(sql);
    const who = await sessionOf(sql, a.me.id);
    text = await download(a.me.id, who.sessionId);
    data = JSON.parse(text);
  });

  it("holds every part the rules file lists, under the keys docs/your-data.md documents", async () => {
    expect(Object.keys(data).sort()).toEqual([
      "account",
      "consent",
      "format",
      "generated_at",
      "jokers",
      "memberships",
      "notices",
      "picks",
      "plans",
      "profile",
      "push_subscriptions",
      "referrals",
      "reminders",
      "scout_entries",
      "sessions",
      "tickets",
    ]);
    const documented = (await import("node:fs")).readFileSync(new URL("../../docs/your-data.md", import.meta.url), "utf8");
    for (const key of Object.keys(data)) expect(documented, `docs/your-data.md documents ${key}`).toContain(`| \`${key}\``);
    expect(data.account).toMatchObject({ email: a.me.email });
    expect(data.profile).toMatchObject({ username: a.me.username, display_name: a.me.displayName, date_of_birth: "1990-01-01" });
    expect(data.consent).toMatchObject({ analytics: true });
    expect(data.memberships).toHaveLength(4);
  });

  it("splits picks (deadline passed) from plans, marks who chose each, and nests Scout predictions in their entries", () => {
    expect(data.picks.map((p: { match_day: number; team: string }) => [p.match_day, p.team])).toEqual([
      [1, a.teams.past],
      [2, a.teams.past],
    ]);
    expect(data.plans.map((p: { match_day: number }) => p.match_day)).toEqual([3, 3]);
    expect(data.picks[0]).toMatchObject({ chosen_by: "you", home_team: "Acct Lions", away_team: "Acct Tigers" });
    expect(data.scout_entries.map((e: { match_day: number; predictions: unknown[] }) => [e.match_day, e.predictions.length])).toEqual([
      [2, 2],
      [3, 2],
    ]);
    expect(data.scout_entries[0].predictions[0]).toMatchObject({ home_goals: 2, away_goals: 1 });
  });

  it("counts and dates referrals, gives push services by host only and sessions without tokens", () => {
    expect(data.referrals.friends_referred).toBe(1);
    expect(data.referrals.referred_at).toHaveLength(1);
    expect(data.push_subscriptions.map((s: { service: string }) => s.service).sort()).toEqual([
      "fcm.googleapis.com",
      "updates.push.services.mozilla.com",
    ]);
    expect(Object.keys(data.sessions[0]).sort()).toEqual(["created_at", "expires_at", "last_used_at"]);
    expect(data.notices).toEqual([expect.objectContaining({ text: "A notice for me" })]);
    expect(data.reminders).toEqual([expect.objectContaining({ match_day: 3, kind: "6h" })]);
    expect(data.tickets.length).toBeGreaterThan(0);
  });

  it("holds nothing of anyone else, and no secret", async () => {
    const [hash] = await sql<{ h: string }[]>`select password_hash as h from account.accounts where id = ${a.me.id}`;
    const [session] = await sql<{ id: string }[]>`select id from account.sessions where user_id = ${a.me.id} limit 1`;
    for (const secret of [hash.h, session.id, "p256dh-key", "auth-secret", "wpush/v2", `fcm-`, a.me.id]) expect(text).not.toContain(secret);
    for (const person of [a.other, a.friend, a.referrer]) {
      for (const trace of [person.id, person.email, person.username]) expect(text).not.toContain(trace);
    }
    expect(text).not.toContain("A notice for the other");
  });

  it("is nothing for a signed-out caller", async () => {
    const [row] = await asUser(db.sql, null, (tx) => tx`select public.my_data() as data`, { role: "anon" }).catch(() => [
      { data: "refused" },
    ]);
    expect(row.data).toBe("refused"); // anon may not call it at all
    const [own] = await asUser(db.sql, null, (tx) => tx`select public.my_data() as data`);
    expect(own.data).toBeNull();
  });
});

describe("deleting an account (private.delete_account)", () => {
  let a: Arranged;
  let before: { knockoutRanks: unknown; openCount: number; seasonBoard: unknown };

  const board = (competition: string) =>
    asUser(
      db.sql,
      a.other.id,
      (tx) => tx`select user_id, rank, points from public.season_leaderboard_page(${competition}, 0, 50) order by user_id`,
    );

  beforeAll(async () => {
    a = await arrangeEverything(sql);
    before = {
      knockoutRanks: await sql`select user_id, status from public.user_selections where competition_id = ${a.knockout} order by user_id`,
      openCount: (await sql<{ n: number }[]>`select player_count as n from public.competitions where id = ${a.open}`)[0].n,
      seasonBoard: await board(a.season),
    };
    const who = await sessionOf(sql, a.me.id);
    const otherSession = await sessionOf(sql, a.other.id);
    expect(await deleteAccount(server(), who, PASSWORD, address())).toEqual({ ok: true });
    expect((await sql`select 1 from account.sessions where id = ${otherSession.sessionId}`).length, "the other player's session").toBe(1);
  });

  it("clears the account and the profile: 'Deleted player' and a short tag, no e-mail, password or details", async () => {
    const [account] = await sql`select email, password_hash, confirmed_at from account.accounts where id = ${a.me.id}`;
    expect(account).toEqual({ email: null, password_hash: null, confirmed_at: null });
    const [profile] = await sql`
      select username, display_name, email, date_of_birth, gender, referral_code, referred_by, analytics_consent,
             notifications_enabled, fcm_token, role, deleted_at is not null as deleted from public.profiles where id = ${a.me.id}`;
    expect(profile.username).toMatch(/^Deleted player [A-HJ-NP-Z2-9]{4}$/);
    expect(profile).toMatchObject({
      display_name: null,
      email: null,
      date_of_birth: null,
      gender: null,
      referral_code: null,
      referred_by: null,
      analytics_consent: null,
      notifications_enabled: false,
      fcm_token: null,
      role: "player",
      deleted: true,
    });
  });

  it("removes sessions, links, push subscriptions, notices, plans, unlocked Scout entries, referrals made and the throttle's rows", async () => {
    const id = a.me.id;
    const gone = {
      sessions: await count(sql`select count(*)::int as n from account.sessions where user_id = ${id}`),
      resets: await count(sql`select count(*)::int as n from account.password_reset_tokens where user_id = ${id}`),
      pushes: await count(sql`select count(*)::int as n from public.push_subscriptions where user_id = ${id}`),
      notices: await count(sql`select count(*)::int as n from public.notices where user_id = ${id}`),
      reminders: await count(sql`select count(*)::int as n from public.reminder_log where user_id = ${id}`),
      plans: await count(sql`select count(*)::int as n from public.team_selections where user_id = ${id} and match_day >= 3`),
      scoutAhead: await count(sql`select count(*)::int as n from public.scout_entries where user_id = ${id} and match_day = 3`),
      referralsMade: await count(sql`select count(*)::int as n from public.referrals where referrer_id = ${id}`),
      unusedTickets: await count(sql`select count(*)::int as n from public.tickets where user_id = ${id}`),
      attempts: await count(sql`select count(*)::int as n from account.auth_attempts where key = ${`login:email:${a.me.email}`}`),
      outbox: await count(sql`select count(*)::int as n from account.mail_outbox where to_email = ${a.me.email}`),
    };
    expect(gone).toEqual({
      sessions: 0,
      resets: 0,
      pushes: 0,
      notices: 0,
      reminders: 0,
      plans: 0,
      scoutAhead: 0,
      referralsMade: 0,
      unusedTickets: 0,
      attempts: 0,
      outbox: 0,
    });
    // The friend keeps their account; the other player's notice stays.
    expect(await count(sql`select count(*)::int as n from account.accounts where id = ${a.friend.id} and email is not null`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from public.notices where user_id = ${a.other.id}`)).toBe(1);
  });

  it("keeps past picks and locked Scout entries, so other players' tables do not change", async () => {
    expect(
      await sql`select competition_id, match_day, selected_team from public.team_selections where user_id = ${a.me.id} order by match_day`,
    ).toEqual([
      { competition_id: a.knockout, match_day: 1, selected_team: a.teams.past },
      { competition_id: a.season, match_day: 2, selected_team: a.teams.past },
    ]);
    expect(await count(sql`select count(*)::int as n from public.scout_entries where user_id = ${a.me.id} and match_day = 2`)).toBe(1);
    expect(await sql`select user_id, status from public.user_selections where competition_id = ${a.knockout} order by user_id`).toEqual(
      before.knockoutRanks,
    );
    expect(await board(a.season)).toEqual(before.seasonBoard);
  });

  it("removes memberships of competitions still open for registration; created competitions go on", async () => {
    expect(
      await count(
        sql`select count(*)::int as n from public.user_selections where user_id = ${a.me.id} and competition_id in (${a.open}, ${a.created})`,
      ),
    ).toBe(0);
    expect((await sql<{ n: number }[]>`select player_count as n from public.competitions where id = ${a.open}`)[0].n).toBe(
      before.openCount - 1,
    );
    const [created] = await sql`select created_by, status from public.competitions where id = ${a.created}`;
    expect(created).toEqual({ created_by: a.me.id, status: "active" });
    // Admins act for the creator: Manage Selections answers them.
    const admin = await createAdmin(sql);
    const rows = await asUser(db.sql, admin.id, (tx) => tx`select * from public.manage_selections(${a.created})`);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("frees the e-mail for a new sign-up and the names for anyone", async () => {
    const again = await signUp(server(), a.me.email, "a-new-secret", null, address());
    expect(again).toMatchObject({ ok: true });
    expect(again.ok && again.userId).not.toBe(a.me.id);
    expect(await verifyLogin(server(), a.me.email, PASSWORD, address())).toMatchObject({ ok: false });
    const taker = await createPlayer(sql, { username: a.me.username, email: `taker.${a.me.username}@example.test` });
    await sql`update public.profiles set display_name = ${a.me.displayName} where id = ${taker.id}`;
  });

  it("answers not_found a second time, changing nothing", async () => {
    expect(await sql`select private.delete_account(${a.me.id}) as outcome`).toEqual([{ outcome: "not_found" }]);
  });
});

describe("the last admin", () => {
  it("cannot delete their account; another admin can, once one remains", async () => {
    // Only the admins this test makes: earlier admins of this database are demoted for the test's sake.
    await sql`update public.profiles set role = 'player' where role = 'admin'`;
    const first = await createAdmin(sql, { password: PASSWORD });
    const firstSession = await sessionOf(sql, first.id);
    const refused = await deleteAccount(server(), firstSession, PASSWORD, address());
    expect(refused).toMatchObject({ ok: false, status: 409, message: "The last admin cannot delete their account." });
    expect(await count(sql`select count(*)::int as n from account.accounts where id = ${first.id} and email is not null`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from account.sessions where id = ${firstSession.sessionId}`)).toBe(1);

    const second = await createAdmin(sql, { password: PASSWORD });
    expect(await deleteAccount(server(), firstSession, PASSWORD, address())).toEqual({ ok: true });
    expect(await deleteAccount(server(), await sessionOf(sql, second.id), PASSWORD, address())).toMatchObject({ status: 409 });
  });
});
