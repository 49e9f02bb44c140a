/**
 * Referral sign-up (public.handle_referral_signup): one referral ticket to the referrer, once per referred account,
 * only once the referred account has confirmed its e-mail, never to oneself, unknown codes answer false, codes
 * compared trimmed and case-insensitively, refused to players.
 * Admin Scout creation (public.admin_create_competition with the prize fields): https-only prize URLs, lengths,
 * prize fields only for Scout, Scout only public.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { confirmEmail, createAccount as signUp } from "~/models/account.server";
import { createAccount, createAdmin, createFixtures, createPlayer, type Sql } from "../support/factories";
import { asUser, errorCode, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
});

afterAll(async () => {
  await db?.close();
});

/** As the server's service path does it: the service role (the owner may too). */
const award = (referredId: string, email: string, code: string | null) =>
  sql.begin(async (tx) => {
    await tx`set local role service_role`;
    const [{ awarded }] = await tx<
      { awarded: boolean }[]
    >`select public.handle_referral_signup(${referredId}, ${email}, ${code}) as awarded`;
    return awarded;
  });

async function referrer() {
  const p = await createPlayer(sql);
  const [{ code }] = await sql<{ code: string }[]>`select referral_code as code from public.profiles where id = ${p.id}`;
  return { ...p, code };
}

const counts = async (userId: string) => {
  const [row] = await sql<{ referrals: number; tickets: number }[]>`
    select (select count(*)::int from public.referrals where referrer_id = ${userId}) as referrals,
           (select count(*)::int from public.tickets
             where user_id = ${userId} and ticket_type = 'referral' and not used and target_competition_id is null
               and referral_id is not null) as tickets`;
  return row;
};

describe("referral codes", () => {
  it("every profile gets a unique code of 8 upper-case letters and digits", async () => {
    const players = await Promise.all([1, 2, 3, 4, 5].map(() => createPlayer(sql)));
    const rows = await sql<{ id: string; code: string }[]>`
      select id, referral_code as code from public.profiles where id in ${sql(players.map((p) => p.id))}`;
    for (const r of rows) expect(r.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(new Set(rows.map((r) => r.code)).size).toBe(5);
    const p = players[0];
    const another = rows.find((r) => r.id !== p.id)!; // rows come in no particular order
    expect(
      await errorCode(sql`update public.profiles set referral_code = ${another.code} where id = ${p.id}`),
      "a duplicate code is refused",
    ).toBe("23505");
    expect(await errorCode(sql`update public.profiles set referral_code = 'abcdefgh' where id = ${p.id}`)).toBe("23514");
  });
});

describe("handle_referral_signup", () => {
  it("awards the referrer one referral ticket, once per referred account", async () => {
    const r = await referrer();
    const friend = await createAccount(sql);
    expect(await award(friend.id, friend.email, r.code)).toBe(true);
    expect(await counts(r.id)).toEqual({ referrals: 1, tickets: 1 });
    // The same account again (even with another referrer's code): nothing more.
    const other = await referrer();
    expect(await award(friend.id, friend.email, r.code)).toBe(false);
    expect(await award(friend.id, friend.email, other.code)).toBe(false);
    expect(await counts(r.id)).toEqual({ referrals: 1, tickets: 1 });
    expect(await counts(other.id)).toEqual({ referrals: 0, tickets: 0 });
    // A second friend: a second ticket.
    const friend2 = await createAccount(sql);
    expect(await award(friend2.id, friend2.email, r.code)).toBe(true);
    expect(await counts(r.id)).toEqual({ referrals: 2, tickets: 2 });
    const [ticket] = await sql`
      select t.ticket_type, t.target_competition_id, t.used, f.referred_id from public.tickets t
        join public.referrals f on f.id = t.referral_id where f.referred_id = ${friend2.id}`;
    expect(ticket).toEqual({ ticket_type: "referral", target_competition_id: null, used: false, referred_id: friend2.id });
  });

  it("awards nothing for an account that has not confirmed its e-mail (the award waits for the link)", async () => {
    const r = await referrer();
    const friend = await createAccount(sql, { confirmed: false });
    expect(await award(friend.id, friend.email, r.code)).toBe(false);
    expect(await counts(r.id)).toEqual({ referrals: 0, tickets: 0 });
    await sql`update account.accounts set confirmed_at = now() where id = ${friend.id}`;
    expect(await award(friend.id, friend.email, r.code)).toBe(true);
    expect(await counts(r.id)).toEqual({ referrals: 1, tickets: 1 });
  });

  it("compares the code trimmed and case-insensitively", async () => {
    const r = await referrer();
    const friend = await createAccount(sql);
    expect(await award(friend.id, friend.email, `  ${r.code.toLowerCase()} `)).toBe(true);
    expect(await counts(r.id)).toEqual({ referrals: 1, tickets: 1 });
  });

  it("never awards oneself (same account, or the referrer's own email)", async () => {
    const r = await referrer();
    expect(await award(r.id, r.email, r.code)).toBe(false);
    expect(await award(r.id, "someone.else@example.test", r.code)).toBe(false);
    const friend = await createAccount(sql);
    expect(await award(friend.id, r.email.toUpperCase(), r.code)).toBe(false);
    expect(await counts(r.id)).toEqual({ referrals: 0, tickets: 0 });
  });

  it("answers false without an error for an unknown, malformed or empty code, or an unknown account", async () => {
    const r = await referrer();
    const friend = await createAccount(sql);
    for (const code of ["ZZZZZZZZ", "nope", "", "   ", null, "ABC'; --", "A".repeat(50)]) {
      expect(await award(friend.id, friend.email, code)).toBe(false);
    }
    expect(await award("00000000-0000-4000-8000-000000000000", "ghost@example.test", r.code)).toBe(false);
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from public.referrals where referred_id = ${friend.id}`;
    expect(n).toBe(0);
    expect(await counts(r.id)).toEqual({ referrals: 0, tickets: 0 });
  });

  it("is refused to players and signed-out callers: nobody mints tickets through the API", async () => {
    const r = await referrer();
    const friend = await createPlayer(sql);
    for (const role of ["authenticated", "anon"] as const) {
      for (const fn of ["public.handle_referral_signup", "private.handle_referral_signup"]) {
        const code = await errorCode(
          asUser(
            sql,
            role === "anon" ? null : friend.id,
            (tx) => tx.unsafe(`select ${fn}($1, $2, $3)`, [friend.id, friend.email, r.code]),
            {
              role,
            },
          ),
        );
        expect(code, `${fn} as ${role}`).toBe("42501");
      }
    }
    // Nor can a player write referrals or tickets directly.
    expect(
      await errorCode(
        asUser(sql, friend.id, (tx) => tx`insert into public.tickets (user_id, ticket_type) values (${friend.id}, 'referral')`),
      ),
    ).toBe("42501");
    expect(await counts(r.id)).toEqual({ referrals: 0, tickets: 0 });
  });

  it("a player sees their referral count and referral tickets (row-level security)", async () => {
    const r = await referrer();
    const friends = await Promise.all([1, 2, 3].map(() => createAccount(sql)));
    for (const f of friends) expect(await award(f.id, f.email, r.code)).toBe(true);
    const seen = await asUser(sql, r.id, async (tx) => {
      const [row] = await tx<{ referrals: number; tickets: number }[]>`
        select (select count(*)::int from public.referrals where referrer_id = ${r.id}) as referrals,
               (select count(*)::int from public.tickets where user_id = ${r.id} and ticket_type = 'referral' and not used) as tickets`;
      return row;
    });
    expect(seen).toEqual({ referrals: 3, tickets: 3 });
  });
});

describe("sign-up and confirmation (app/models/account.server.ts createAccount, confirmEmail)", () => {
  const server = () => createDb(db.url, new Date());
  const address = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const ticketsOf = async (userId: string) =>
    (await sql<{ n: number }[]>`select count(*)::int as n from public.tickets where user_id = ${userId} and ticket_type = 'referral'`)[0].n;

  it("awards the referrer when the confirmation link is opened, not at sign-up, and says so", async () => {
    const r = await referrer();
    const created = await signUp(server(), `signup.${r.code.toLowerCase()}@example.test`, "secret1", r.code, address());
    if (!created.ok) throw new Error(created.message);
    expect(await ticketsOf(r.id)).toBe(0);
    expect(await confirmEmail(server(), created.token, address())).toMatchObject({ ok: true, referralAwarded: true });
    expect(await ticketsOf(r.id)).toBe(1);
    const unknown = await signUp(server(), `signup.unknown.${r.code.toLowerCase()}@example.test`, "secret1", "ZZZZ0000", address());
    if (!unknown.ok) throw new Error(unknown.message);
    expect(await confirmEmail(server(), unknown.token, address())).toMatchObject({ ok: true, referralAwarded: false });
  });

  it("a failing referral step never blocks the confirmation (savepoint; the account is confirmed)", async () => {
    const r = await referrer();
    const email = `signup.failing.${r.code.toLowerCase()}@example.test`;
    const created = await signUp(server(), email, "secret1", r.code, address());
    if (!created.ok) throw new Error(created.message);
    // Make the referral step fail for real: the function is gone for the length of this test.
    await sql`alter function public.handle_referral_signup(uuid, text, text) rename to handle_referral_signup_away`;
    try {
      expect(await confirmEmail(server(), created.token, address())).toMatchObject({ ok: true, referralAwarded: false });
    } finally {
      await sql`alter function public.handle_referral_signup_away(uuid, text, text) rename to handle_referral_signup`;
    }
    const [account] =
      await sql`select signup_referral_code, confirmed_at is not null as confirmed from account.accounts where email = ${email}`;
    expect(account).toEqual({ signup_referral_code: r.code, confirmed: true });
    expect(await ticketsOf(r.id)).toBe(0);
  });
});

describe("admin creates Scout competitions with a prize", () => {
  const NOW = new Date("2027-05-01T12:00:00Z");
  const KICKOFF = new Date("2027-05-08T15:00:00Z");
  let admin: string;
  let player: string;

  beforeAll(async () => {
    admin = (await createAdmin(sql)).id;
    player = (await createPlayer(sql)).id;
    await createFixtures(sql, "Ligue 1", "2025/26", [{ matchDay: 3, kickoff: KICKOFF, home: "Lyon", away: "Nice" }]);
  });

  type Prize = { title?: string | null; description?: string | null; terms?: string | null; image?: string | null };
  const create = (name: string, type: string, prize: Prize, as = admin) =>
    asUser(
      sql,
      as,
      async (tx: postgres.TransactionSql) =>
        (
          await tx<{ id: string }[]>`
        select public.admin_create_competition(${name}, ${type}, 'Ligue 1', '2025/26', '2027-05-02', 3, null,
          ${prize.title ?? null}, ${prize.description ?? null}, ${prize.terms ?? null}, ${prize.image ?? null}) as id`
        )[0].id,
      { now: NOW },
    );

  const prize = {
    title: "  Signed shirt ",
    description: "A shirt signed by the squad.",
    terms: "https://example.com/terms?x=1",
    image: "https://cdn.example.com/shirt.png",
  };

  it("creates a public, active Scout competition with its prize (trimmed)", async () => {
    const id = await create("Scout Prize Cup", "scout", prize);
    const [c] = await sql`
      select type, visibility, status, registration_status, current_match_day, prize_title, prize_description,
             prize_terms_url, prize_image_url from public.competitions where id = ${id}`;
    expect(c).toEqual({
      type: "scout",
      visibility: "public",
      status: "active",
      registration_status: "open",
      current_match_day: 3,
      prize_title: "Signed shirt",
      prize_description: prize.description,
      prize_terms_url: prize.terms,
      prize_image_url: prize.image,
    });
  });

  it("takes https:// addresses only", async () => {
    const bad = [
      "http://example.com/terms",
      "/terms",
      "javascript:alert(1)",
      "https://",
      "https://exa mple.com",
      "ftp://x.org",
      "https://x.org/a b",
    ];
    for (const url of bad) {
      await expect(create(`Scout bad terms ${url}`, "scout", { ...prize, terms: url })).rejects.toMatchObject({
        code: "P0001",
        message: "Prize terms URL must be an https:// address.",
      });
      await expect(create(`Scout bad image ${url}`, "scout", { ...prize, image: url })).rejects.toMatchObject({
        code: "P0001",
        message: "Prize image URL must be an https:// address.",
      });
    }
    await expect(create("Scout long url", "scout", { image: `https://x.org/${"a".repeat(2000)}` })).rejects.toMatchObject({
      message: "Prize image URL must be an https:// address.",
    });
  });

  it("checks the lengths, and prize details only for Scout", async () => {
    await expect(create("Scout long title", "scout", { title: "t".repeat(201) })).rejects.toMatchObject({
      message: "Prize title must be at most 200 characters.",
    });
    await expect(create("Scout long description", "scout", { description: "d".repeat(4001) })).rejects.toMatchObject({
      message: "Prize description must be at most 4000 characters.",
    });
    await expect(create("Knockout with prize", "knockout", { title: "Shirt" })).rejects.toMatchObject({
      message: "Prize details are for Scout competitions only.",
    });
    // Blank prize fields are none: a knockout with blanks is fine, a Scout competition without a prize too.
    expect(await create("Knockout blanks", "knockout", { title: "  ", terms: "" })).toBeTruthy();
    const id = await create("Scout no prize", "scout", {});
    const [c] = await sql`select prize_title, prize_terms_url from public.competitions where id = ${id}`;
    expect(c).toEqual({ prize_title: null, prize_terms_url: null });
  });

  it("is for admins only, and a Scout competition is never private", async () => {
    await expect(create("Scout by player", "scout", prize, player)).rejects.toMatchObject({
      code: "42501",
      message: "Access denied. Admins only.",
    });
    await expect(
      asUser(
        sql,
        admin,
        (tx) => tx`select * from public.create_private_competition('Private scout', 'scout', 'Ligue 1', '2025/26', '2027-05-02', 3)`,
        { now: NOW },
      ),
    ).rejects.toMatchObject({ code: "P0001", message: "Type must be knockout or season." });
  });
});
