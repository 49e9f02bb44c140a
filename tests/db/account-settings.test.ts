/**
 * The Account section's actions (rules file, "Your account and your data"; decision 029) through the server's own
 * module (app/models/account-settings.server.ts) on a real database: for each action its success, a wrong password
 * (nothing changes, and it says so), a replay, another player's session left alone, and the throttle (10 wrong
 * passwords in 15 minutes per account or address answer 429, as logins do).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { verifyLogin } from "~/models/account.server";
import {
  changePassword,
  confirmEmailChange,
  deleteAccount,
  emailChangeTokenUsable,
  requestEmailChange,
  signOutOthers,
} from "~/models/account-settings.server";
import { createPlayer, type Sql } from "../support/factories";
import { useTestDatabase } from "../support/pg";
import { PASSWORD, sessionOf, sha256 } from "./account-support";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
});

afterAll(async () => {
  await db?.close();
});

const HOUR = 3_600_000;
const server = (now = new Date()) => createDb(db.url, now);
let n = 0;
const address = () => `10.8.${++n % 250}.${Math.floor(Math.random() * 250)}`;
const WRONG = { ok: false, signedOut: false, status: 403, message: "That password is not correct. Nothing was changed." };

/** A player with three sessions (this browser, two others) and another player with one. */
async function players() {
  const me = await createPlayer(sql, { password: PASSWORD });
  const here = await sessionOf(sql, me.id);
  const elsewhere = [await sessionOf(sql, me.id), await sessionOf(sql, me.id)];
  const other = await createPlayer(sql, { password: PASSWORD });
  const otherSession = await sessionOf(sql, other.id);
  return { me, here, elsewhere, other, otherSession };
}

const sessionIds = async (userId: string) =>
  (await sql<{ id: string }[]>`select id from account.sessions where user_id = ${userId} order by id`).map((r) => r.id);
const logsIn = async (email: string, password: string) => (await verifyLogin(server(), email, password, address())).ok;

describe("change password", () => {
  it("sets the new password and ends the other sessions; this one and another player's stay", async () => {
    const p = await players();
    expect(await changePassword(server(), p.here, PASSWORD, "brand-new-1", address())).toEqual({ ok: true });
    expect(await sessionIds(p.me.id)).toEqual([p.here.sessionId]);
    expect(await sessionIds(p.other.id)).toEqual([p.otherSession.sessionId]);
    expect(await logsIn(p.me.email, "brand-new-1")).toBe(true);
    expect(await logsIn(p.me.email, PASSWORD)).toBe(false);

    // A replay of the same request: its "current password" is no longer the password.
    expect(await changePassword(server(), p.here, PASSWORD, "brand-new-1", address())).toMatchObject({
      ...WRONG,
      field: "currentPassword",
    });
    expect(await logsIn(p.me.email, "brand-new-1")).toBe(true);
  });

  it("with a wrong current password changes nothing and says so", async () => {
    const p = await players();
    const [before] = await sql`select password_hash from account.accounts where id = ${p.me.id}`;
    expect(await changePassword(server(), p.here, "not-it", "brand-new-1", address())).toMatchObject(WRONG);
    expect(await sql`select password_hash from account.accounts where id = ${p.me.id}`).toEqual([before]);
    expect(await sessionIds(p.me.id)).toHaveLength(3);
  });

  it("is throttled like logins: after 10 wrong passwords even the right one gets 429, per account and per address", async () => {
    const p = await players();
    for (let i = 0; i < 10; i++)
      expect(await changePassword(server(), p.here, `wrong-${i}`, "brand-new-1", address())).toMatchObject(WRONG);
    expect(await changePassword(server(), p.here, PASSWORD, "brand-new-1", address())).toMatchObject({ status: 429 });
    expect(await logsIn(p.me.email, PASSWORD)).toBe(true);

    const q = await players();
    const from = address();
    for (let i = 0; i < 10; i++) await deleteAccount(server(), q.here, `wrong-${i}`, from);
    expect(await changePassword(server(), (await players()).here, PASSWORD, "brand-new-1", from)).toMatchObject({ status: 429 });
  });

  it("answers signedOut for a session that ended meanwhile, changing nothing", async () => {
    const p = await players();
    await sql`delete from account.sessions where id = ${p.here.sessionId}`;
    expect(await changePassword(server(), p.here, PASSWORD, "brand-new-1", address())).toEqual({ ok: false, signedOut: true });
    expect(await logsIn(p.me.email, PASSWORD)).toBe(true);
  });
});

describe("sign out everywhere else", () => {
  it("ends every other session of the player only; a replay ends none; 10 in 15 minutes, then 429", async () => {
    const p = await players();
    expect(await signOutOthers(server(), p.here, address())).toEqual({ ok: true, ended: 2 });
    expect(await sessionIds(p.me.id)).toEqual([p.here.sessionId]);
    expect(await sessionIds(p.other.id)).toEqual([p.otherSession.sessionId]);
    for (let i = 0; i < 9; i++) expect(await signOutOthers(server(), p.here, address())).toEqual({ ok: true, ended: 0 });
    expect(await signOutOthers(server(), p.here, address())).toMatchObject({ status: 429 });
  });
});

describe("change e-mail", () => {
  const fresh = () => `new.${Date.now().toString(36)}.${++n}@example.test`;

  it("changes the address only when the link is opened; the link works once and voids the others", async () => {
    const p = await players();
    const to = fresh();
    const asked = await requestEmailChange(server(), p.here, PASSWORD, to, address());
    if (!asked.ok || !asked.token) throw new Error(`refused: ${JSON.stringify(asked)}`);
    const second = await requestEmailChange(server(), p.here, PASSWORD, fresh(), address());
    if (!second.ok || !second.token) throw new Error("second link refused");
    const [stored] =
      await sql`select token_hash, new_email from account.email_change_tokens where user_id = ${p.me.id} order by created_at limit 1`;
    expect(stored).toEqual({ token_hash: sha256(asked.token), new_email: to });
    expect((await sql`select email from account.accounts where id = ${p.me.id}`)[0].email).toBe(p.me.email);

    expect(await confirmEmailChange(server(), asked.token, address())).toEqual({ ok: true, oldEmail: p.me.email, newEmail: to });
    expect((await sql`select email from public.profiles where id = ${p.me.id}`)[0].email).toBe(to);
    expect(await logsIn(to, PASSWORD)).toBe(true);
    expect(await logsIn(p.me.email, PASSWORD)).toBe(false);
    // Replayed, and the other open link: both spent.
    expect(await confirmEmailChange(server(), asked.token, address())).toMatchObject({
      ok: false,
      message: "This email change link is invalid or has expired.",
    });
    expect(await emailChangeTokenUsable(server(), second.token)).toBe(false);
    expect(await sessionIds(p.other.id)).toEqual([p.otherSession.sessionId]);
  });

  it("gives a taken address the same answer as a free one, and makes no link for it", async () => {
    const p = await players();
    const taken = await requestEmailChange(server(), p.here, PASSWORD, p.other.email, address());
    expect(taken).toEqual({ ok: true, token: null });
    expect(Object.keys(taken).sort()).toEqual(Object.keys(await requestEmailChange(server(), p.here, PASSWORD, fresh(), address())).sort());
    expect(await sql`select 1 from account.email_change_tokens where new_email = ${p.other.email}`).toHaveLength(0);
  });

  it("with a wrong password makes no link; its own address is refused; a link expires after 24 hours", async () => {
    const p = await players();
    expect(await requestEmailChange(server(), p.here, "not-it", fresh(), address())).toMatchObject(WRONG);
    expect(await sql`select 1 from account.email_change_tokens where user_id = ${p.me.id}`).toHaveLength(0);
    expect(await requestEmailChange(server(), p.here, PASSWORD, p.me.email, address())).toMatchObject({ status: 400, field: "newEmail" });
    const asked = await requestEmailChange(server(), p.here, PASSWORD, fresh(), address());
    if (!asked.ok || !asked.token) throw new Error("refused");
    expect(await confirmEmailChange(server(new Date(Date.now() + 25 * HOUR)), asked.token, address())).toMatchObject({ ok: false });
    expect((await sql`select email from account.accounts where id = ${p.me.id}`)[0].email).toBe(p.me.email);
  });

  it("refuses a link whose address was taken after it was mailed, changing nothing", async () => {
    const p = await players();
    const to = fresh();
    const asked = await requestEmailChange(server(), p.here, PASSWORD, to, address());
    if (!asked.ok || !asked.token) throw new Error("refused");
    await createPlayer(sql, { email: to });
    expect(await confirmEmailChange(server(), asked.token, address())).toMatchObject({
      ok: false,
      message: expect.stringContaining("already has an account"),
    });
    expect((await sql`select email from account.accounts where id = ${p.me.id}`)[0].email).toBe(p.me.email);
  });
});

describe("delete account", () => {
  it("with a wrong password changes nothing; with the right one ends every session; a replay finds the session gone", async () => {
    const p = await players();
    expect(await deleteAccount(server(), p.here, "not-it", address())).toMatchObject(WRONG);
    expect(await logsIn(p.me.email, PASSWORD)).toBe(true);
    expect(await sessionIds(p.me.id)).toHaveLength(3);

    expect(await deleteAccount(server(), p.here, PASSWORD, address())).toEqual({ ok: true });
    expect(await sessionIds(p.me.id)).toEqual([]);
    expect(await sessionIds(p.other.id)).toEqual([p.otherSession.sessionId]);
    expect(await deleteAccount(server(), p.here, PASSWORD, address())).toEqual({ ok: false, signedOut: true });
    // Another player's session cannot delete this one's account: the model acts for the session's own account only.
    expect(await deleteAccount(server(), { id: p.other.id, sessionId: p.here.sessionId }, PASSWORD, address())).toEqual({
      ok: false,
      signedOut: true,
    });
    expect(await logsIn(p.other.email, PASSWORD)).toBe(true);
  });
});
