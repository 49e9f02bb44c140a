/**
 * E-mail confirmation (rules file, Accounts and Referrals), through the server's own account module
 * (app/models/account.server.ts) on a real database: sign-up makes an unconfirmed account and a one-time link
 * valid for 24 hours (only its SHA-256 stored); the account logs in only after the link is opened; the referral
 * ticket is awarded when it is opened, not at sign-up; sign-ups and resends are throttled per address and per
 * e-mail. The farming report: 20 scripted sign-ups from one address with one code gave 20 free Scout entries.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { confirmationTokenUsable, confirmEmail, createAccount as signUp, resendConfirmation, verifyLogin } from "~/models/account.server";
import { createAccount, createPlayer, type Sql } from "../support/factories";
import { useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

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
const email = (tag: string) => `${tag}.${Date.now().toString(36)}.${++n}@example.test`;
const address = () => `10.${n % 250}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

async function referrer() {
  const p = await createPlayer(sql);
  const [{ code }] = await sql<{ code: string }[]>`select referral_code as code from public.profiles where id = ${p.id}`;
  return { ...p, code };
}

const referralTickets = async (userId: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from public.tickets where user_id = ${userId} and ticket_type = 'referral'`)[0].n;

/** A successful sign-up's token (the test fails loudly when the sign-up was refused). */
async function signedUp(to: string, code: string | null = null, from = address(), now = new Date()) {
  const result = await signUp(server(now), to, "secret1", code, from);
  if (!result.ok) throw new Error(`sign-up refused: ${result.message}`);
  return result;
}

describe("sign-up", () => {
  it("makes an unconfirmed account and a confirmation token of which only the SHA-256 is stored; nothing awarded yet", async () => {
    const r = await referrer();
    const to = email("unconfirmed");
    const created = await signedUp(to, r.code);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits, base64url
    const [account] = await sql`select id, confirmed_at, signup_referral_code from account.accounts where email = ${to}`;
    expect(account).toEqual({ id: created.userId, confirmed_at: null, signup_referral_code: r.code });
    const tokens =
      await sql`select token_hash, used_at, extract(epoch from expires_at - created_at)::int as ttl from account.email_confirmation_tokens
                              where user_id = ${created.userId}`;
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toBe(sha256(created.token));
    expect(tokens[0].used_at).toBeNull();
    expect(tokens[0].ttl).toBe(24 * 3600);
    expect(await referralTickets(r.id)).toBe(0);
    expect((await sql`select 1 from public.referrals where referred_id = ${created.userId}`).length).toBe(0);
  });

  it("answers 'User already registered' for a taken e-mail and makes no second token", async () => {
    const to = email("taken");
    const first = await signedUp(to);
    const again = await signUp(server(), to, "secret1", null, address());
    expect(again).toMatchObject({ ok: false, throttled: false, message: "User already registered" });
    const [{ count }] = await sql`select count(*)::int as count from account.email_confirmation_tokens where user_id = ${first.userId}`;
    expect(count).toBe(1);
  });
});

describe("logging in before and after confirming", () => {
  it("refuses an unconfirmed account with the right password ('Please confirm your email first.'), a wrong one as usual", async () => {
    const to = email("early");
    const created = await signedUp(to);
    expect(await verifyLogin(server(), to, "secret1", address())).toEqual({
      ok: false,
      throttled: false,
      unconfirmed: true,
      message: "Please confirm your email first.",
    });
    // A wrong password never learns that the account exists and waits for confirmation.
    expect(await verifyLogin(server(), to, "wrong-password", address())).toMatchObject({
      ok: false,
      unconfirmed: false,
      message: "Invalid login credentials",
    });
    expect(await confirmEmail(server(), created.token, address())).toMatchObject({ ok: true, userId: created.userId });
    expect(await verifyLogin(server(), to, "secret1", address())).toMatchObject({ ok: true, userId: created.userId });
  });
});

describe("the confirmation link", () => {
  it("confirms the account once and awards the referrer at that moment", async () => {
    const r = await referrer();
    const created = await signedUp(email("referred"), r.code);
    expect(await confirmationTokenUsable(server(), created.token)).toBe(true);
    expect(await referralTickets(r.id)).toBe(0);

    const confirmed = await confirmEmail(server(), created.token, address());
    expect(confirmed).toEqual({ ok: true, userId: created.userId, referralAwarded: true });
    expect(await referralTickets(r.id)).toBe(1);
    const [account] = await sql`select confirmed_at is not null as confirmed from account.accounts where id = ${created.userId}`;
    expect(account.confirmed).toBe(true);

    // Works once: the same link again changes nothing and awards nothing.
    expect(await confirmationTokenUsable(server(), created.token)).toBe(false);
    expect(await confirmEmail(server(), created.token, address())).toMatchObject({
      ok: false,
      message: "This confirmation link is invalid or has expired.",
    });
    expect(await referralTickets(r.id)).toBe(1);
  });

  it("without a referral code, or with an unknown one, confirms and awards nobody", async () => {
    const plain = await signedUp(email("plain"));
    expect(await confirmEmail(server(), plain.token, address())).toEqual({ ok: true, userId: plain.userId, referralAwarded: false });
    const unknown = await signedUp(email("unknown"), "ZZZZ0000");
    expect(await confirmEmail(server(), unknown.token, address())).toEqual({ ok: true, userId: unknown.userId, referralAwarded: false });
  });

  it("expires after 24 hours", async () => {
    const start = new Date("2031-03-01T10:00:00Z");
    const created = await signedUp(email("late"), null, address(), start);
    const later = new Date(start.getTime() + 24 * HOUR + 60_000);
    expect(await confirmationTokenUsable(server(later), created.token)).toBe(false);
    expect(await confirmEmail(server(later), created.token, address())).toMatchObject({ ok: false });
    // One minute before the end it still works.
    expect(await confirmEmail(server(new Date(start.getTime() + 24 * HOUR - 60_000)), created.token, address())).toMatchObject({
      ok: true,
    });
  });

  it("answers 'invalid' (never an error) for unknown, malformed and huge tokens", async () => {
    for (const token of [
      "",
      "short",
      "x".repeat(43),
      "\u0000".repeat(43),
      "'; drop table account.accounts; --".repeat(3),
      "x".repeat(100_000),
    ]) {
      expect(await confirmationTokenUsable(server(), token)).toBe(false);
      expect(await confirmEmail(server(), token, address())).toMatchObject({ ok: false, throttled: false });
    }
  });

  itOnRealPostgres("two simultaneous confirmations of one link: one confirms, one ticket (real PostgreSQL only)", async () => {
    const r = await referrer();
    const created = await signedUp(email("race"), r.code);
    const results = await Promise.all([confirmEmail(server(), created.token, address()), confirmEmail(server(), created.token, address())]);
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(await referralTickets(r.id)).toBe(1);
  });
});

describe("resending the link", () => {
  it("issues a fresh link for an unconfirmed account; nothing for unknown or confirmed ones", async () => {
    const to = email("resend");
    const created = await signedUp(to);
    const resent = await resendConfirmation(server(), to, address());
    expect(resent.throttled).toBe(false);
    const token = resent.throttled ? null : resent.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(created.token);
    expect(await resendConfirmation(server(), email("nobody"), address())).toEqual({ throttled: false, token: null });

    // Either link confirms; once one is used, the other is void.
    expect(await confirmEmail(server(), token!, address())).toMatchObject({ ok: true });
    expect(await confirmationTokenUsable(server(), created.token)).toBe(false);
    const existing = await createAccount(sql);
    expect(await resendConfirmation(server(), existing.email, address())).toEqual({ throttled: false, token: null });
    expect(await resendConfirmation(server(), to, address())).toEqual({ throttled: false, token: null });
  });
});

describe("throttling (10 per 15 minutes per key, as logins)", () => {
  it("stops the farming report: 20 scripted sign-ups from one address with one code award nothing and stop at 10", async () => {
    const r = await referrer();
    const from = address();
    const results = [];
    for (let i = 0; i < 20; i++) results.push(await signUp(server(), email(`farm${i}`), "secret1", r.code, from));
    expect(results.filter((x) => x.ok)).toHaveLength(10);
    expect(results.slice(10).every((x) => !x.ok && x.throttled)).toBe(true);
    expect(results[10]).toMatchObject({ message: "Too many attempts. Please wait 15 minutes and try again." });
    // Nothing is awarded by signing up: only opened links count.
    expect(await referralTickets(r.id)).toBe(0);
    // 15 minutes later the address may sign up again.
    const later = new Date(Date.now() + 16 * 60_000);
    expect(await signUp(server(later), email("farm-later"), "secret1", null, from)).toMatchObject({ ok: true });
  });

  it("throttles sign-ups per e-mail across addresses", async () => {
    const to = email("one-mail");
    for (let i = 0; i < 10; i++) expect((await signUp(server(), to, "secret1", null, address())).ok).toBe(i === 0);
    expect(await signUp(server(), to, "secret1", null, address())).toMatchObject({ ok: false, throttled: true });
  });

  it("throttles resends per address and per e-mail", async () => {
    const from = address();
    for (let i = 0; i < 10; i++) expect((await resendConfirmation(server(), email("flood"), from)).throttled).toBe(false);
    expect(await resendConfirmation(server(), email("flood"), from)).toEqual({ throttled: true });

    const to = email("resend-often");
    await signedUp(to);
    for (let i = 0; i < 10; i++) expect((await resendConfirmation(server(), to, address())).throttled).toBe(false);
    expect(await resendConfirmation(server(), to, address())).toEqual({ throttled: true });
  });
});
