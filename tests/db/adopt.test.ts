/**
 * `npm run db:adopt` on a faithful imitation of the hosted project (tests/support/supabase-imitation.ts): the
 * original app's tables referencing auth.users, rows in all of them, its own migration history, run as a
 * `postgres` that is not a superuser. Every row is kept, players log in with their old passwords and see their
 * game under row-level security, a second run changes nothing, and each Supabase Auth case is handled.
 */
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { UNCONFIRMED } from "~/lib/account-messages";
import { HOLD_MESSAGES, verifyLogin } from "~/models/account.server";
import { adopt, formatReport, type AdoptReport } from "../../scripts/db/adopt";
import { copyAuthAccounts } from "../../scripts/db/adopt-accounts";
import { listMigrations } from "../../scripts/db/migrate";
import { asUser, connect, MIGRATIONS_DIR } from "../support/pg";
import { createSupabaseImitation, ORIGINAL_VERSIONS, PEOPLE, seedOriginal, SMALL, type Imitation } from "../support/supabase-imitation";

const kind = inject("dbKind");
let imitation: Imitation;
let owner: ReturnType<typeof connect>;
let su: ReturnType<typeof connect>;
let first: AdoptReport;
let originalCounts: Record<string, number>;
let originalIds: Record<string, string[]>;

const TABLES = [
  "profiles",
  "competitions",
  "fixtures",
  "user_selections",
  "team_selections",
  "tickets",
  "scout_entries",
  "scout_predictions",
  "release_notes",
];

async function login(email: string, password: string) {
  return verifyLogin(createDb(imitation.url, new Date()), email, password, "203.0.113.7");
}

describe.skipIf(kind !== "postgres")("db:adopt on an imitation of the hosted project (real PostgreSQL only)", () => {
  beforeAll(async () => {
    imitation = await createSupabaseImitation(inject("dbAdminUrl"), `footy_adopt_${process.pid}`);
    await seedOriginal(imitation.superUrl, SMALL);
    owner = connect(imitation.url, { max: 2 });
    su = connect(imitation.superUrl, { max: 1 });
    originalCounts = {};
    originalIds = {};
    for (const t of TABLES) {
      const rows = await su.unsafe<{ id: string }[]>(`select id::text from public.${t} order by 1`);
      originalCounts[t] = rows.length;
      originalIds[t] = rows.map((r) => r.id);
    }
    first = await adopt(owner, MIGRATIONS_DIR);
  }, 180_000);

  afterAll(async () => {
    await owner?.end({ timeout: 5 });
    await su?.end({ timeout: 5 });
    await imitation?.drop();
  });

  it("runs as a postgres that is not a superuser, on rows in every original table", async () => {
    const [me] = await owner<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = current_user`;
    expect(me.rolsuper).toBe(false);
    for (const t of TABLES) expect(originalCounts[t], t).toBeGreaterThan(0);
    expect(first.state).toBe("adopted");
  });

  it("keeps every original row (in original_app) and carries each one over or counts it as not carried", async () => {
    for (const t of TABLES) {
      const kept = await su.unsafe<{ id: string }[]>(`select id::text from original_app.${t} order by 1`);
      expect(
        kept.map((r) => r.id),
        t,
      ).toEqual(originalIds[t]);
      const [{ n }] = await su.unsafe<{ n: number }[]>(
        `select count(*)::int as n from original_app.${t} o where exists (select 1 from public.${t} c where c.id = o.id)`,
      );
      expect(n + (first.notCarried[t] ?? 0), t).toBe(originalCounts[t]);
    }
    // Only the soft-deleted player's rows have no home; every row of a live player is carried over.
    const [gone] = await su`select
        (select count(*)::int from original_app.profiles where id = u.id) as profiles,
        (select count(*)::int from original_app.user_selections where user_id = u.id) as user_selections,
        (select count(*)::int from original_app.team_selections where user_id = u.id) as team_selections,
        (select count(*)::int from original_app.scout_entries where user_id = u.id) as scout_entries,
        (select count(*)::int from original_app.scout_predictions sp join original_app.scout_entries e on e.id = sp.scout_entry_id
          where e.user_id = u.id) as scout_predictions,
        (select count(*)::int from original_app.tickets where user_id = u.id) as tickets
      from auth.users u where u.deleted_at is not null`;
    expect(gone.profiles).toBe(1);
    for (const t of ["profiles", "user_selections", "team_selections", "scout_entries", "scout_predictions", "tickets"]) {
      expect(first.notCarried[t] ?? 0, t).toBe(gone[t]);
    }
    for (const t of ["competitions", "fixtures", "release_notes"]) expect(first.notCarried[t] ?? 0, t).toBe(0);
    expect(first.before).toMatchObject({ profiles: originalCounts.profiles, team_selections: originalCounts.team_selections });
    expect(formatReport(first)).toMatch(/rows before \(original\)/);
  });

  it("ends in the current schema with RLS, and the CLI history holds only our migrations", async () => {
    const history = await owner<{ version: string }[]>`select version from supabase_migrations.schema_migrations order by 1`;
    expect(history.map((h) => h.version)).toEqual((await listMigrations(MIGRATIONS_DIR)).map((m) => m.version));
    const kept = await owner<{ version: string }[]>`select version from original_app.schema_migrations order by 1`;
    expect(kept.map((h) => h.version)).toEqual(ORIGINAL_VERSIONS);
    const noRls = await owner<{ relname: string }[]>`
      select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and not relrowsecurity`;
    expect(noRls).toEqual([]);
    // The kept originals are not reachable by the API roles.
    const [{ usable }] = await su<{ usable: boolean }[]>`select has_schema_privilege('authenticated', 'original_app', 'usage') as usable`;
    expect(usable).toBe(false);
  });

  it("lets a player log in with the original password and see their competitions, picks, tickets and Scout entries under RLS", async () => {
    const result = await login(PEOPLE.alice.email, PEOPLE.alice.password);
    expect(result).toMatchObject({ ok: true, username: "alice" });
    if (!result.ok) return;
    const seen = await asUser(owner, result.userId, async (tx) => {
      const [c] = await tx`select
          (select count(*)::int from public.user_selections where user_id = ${result.userId}) as memberships,
          (select count(*)::int from public.team_selections where user_id = ${result.userId}) as picks,
          (select count(*)::int from public.tickets where user_id = ${result.userId}) as tickets,
          (select count(*)::int from public.scout_entries where user_id = ${result.userId}) as entries,
          (select count(*)::int from public.scout_predictions) as predictions_visible,
          (select count(*)::int from public.profiles) as profiles_visible`;
      return c;
    });
    const [orig] = await su`select
        (select count(*)::int from original_app.user_selections s join auth.users u on u.id = s.user_id where u.email = 'alice@example.com') as memberships,
        (select count(*)::int from original_app.team_selections s join auth.users u on u.id = s.user_id where u.email = 'alice@example.com') as picks,
        (select count(*)::int from original_app.tickets s join auth.users u on u.id = s.user_id where u.email = 'alice@example.com') as tickets,
        (select count(*)::int from original_app.scout_entries s join auth.users u on u.id = s.user_id where u.email = 'alice@example.com') as entries`;
    expect(seen.memberships).toBe(orig.memberships);
    expect(seen.picks).toBe(orig.picks);
    expect(seen.tickets).toBeGreaterThanOrEqual(orig.tickets);
    expect(seen.entries).toBe(orig.entries);
    expect(seen.entries).toBeGreaterThan(0);
    // alice is the original admin: she sees every profile; a plain player sees only their own.
    const bob = await login(PEOPLE.bob.email, PEOPLE.bob.password);
    if (!bob.ok) throw new Error("bob cannot log in");
    const bobSees = await asUser(owner, bob.userId, (tx) => tx`select id from public.profiles`);
    expect(bobSees.map((r) => r.id)).toEqual([bob.userId]);
  });

  it("rewrites $2b$ and $2y$ hashes to $2a$ so those players log in too; a wrong password still fails", async () => {
    expect(await login(PEOPLE.bob.email, PEOPLE.bob.password)).toMatchObject({ ok: true });
    expect(await login(PEOPLE.cara.email, PEOPLE.cara.password)).toMatchObject({ ok: true });
    expect(await login("player2@example.com", "generated-password")).toMatchObject({ ok: true });
    expect(await login(PEOPLE.cara.email, "not-her-password")).toMatchObject({ ok: false, message: "Invalid login credentials" });
    expect(first.accounts?.rewrittenPrefix).toBeGreaterThan(1);
  });

  it("keeps unconfirmed and banned users, who cannot log in and are told why; an expired ban logs in", async () => {
    expect(await login(PEOPLE.dan.email, PEOPLE.dan.password)).toMatchObject({ ok: false, unconfirmed: true, message: UNCONFIRMED });
    expect(await login(PEOPLE.eve.email, PEOPLE.eve.password)).toMatchObject({ ok: false, message: HOLD_MESSAGES.banned });
    expect(await login(PEOPLE.fay.email, PEOPLE.fay.password)).toMatchObject({ ok: true });
    const holds = await owner<{ email: string; login_hold: string | null; confirmed: boolean }[]>`
      select email, login_hold, confirmed_at is not null as confirmed from account.accounts
       where email in ('dan@example.com', 'eve@example.com', 'fay@example.com') order by email`;
    expect(holds).toEqual([
      { email: "dan@example.com", login_hold: null, confirmed: false },
      { email: "eve@example.com", login_hold: "banned", confirmed: true },
      { email: "fay@example.com", login_hold: null, confirmed: true },
    ]);
    expect(first.accounts?.unconfirmed).toBe(1);
  });

  it("does not copy soft-deleted users: they cannot log in", async () => {
    expect(await login(PEOPLE.gus.email, PEOPLE.gus.password)).toMatchObject({ ok: false, message: "Invalid login credentials" });
    expect(first.accounts?.softDeleted).toBe(1);
  });

  it("marks argon2 and password-less accounts for a reset (never a silent failure or an error)", async () => {
    expect(await login(PEOPLE.hal.email, PEOPLE.hal.password)).toMatchObject({ ok: false, message: "Invalid login credentials" });
    const held = await owner<{ email: string }[]>`select email from account.accounts where login_hold = 'password_reset' order by email`;
    expect(held.map((h) => h.email)).toEqual(["hal@example.com", "ivy@example.com"]);
    expect(first.accounts?.needReset).toBe(2);
    expect(formatReport(first)).toMatch(/2 need a password reset/);
  });

  it("copies one of two users sharing an address and counts the other, without aborting", async () => {
    expect(first.accounts?.duplicateEmail).toBe(1);
    expect(await login(PEOPLE.kim.email, PEOPLE.kim.password)).toMatchObject({ ok: true });
  });

  it("changes nothing when run again", async () => {
    const snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const t of [...TABLES, "player_names"]) {
        out[t] = await owner.unsafe(`select md5(string_agg(x::text, ',' order by x::text)) as h from public.${t} x`);
      }
      out.accounts =
        await owner`select md5(string_agg(a::text, ',' order by a.id)) as h from (select id, email, password_hash, login_hold from account.accounts) a`;
      out.history = await owner`select string_agg(version, ',' order by version) from supabase_migrations.schema_migrations`;
      return out;
    };
    const before = await snapshot();
    const again = await adopt(owner, MIGRATIONS_DIR);
    expect(again.state).toBe("already-adopted");
    expect(again.migrationsApplied).toBe(0);
    expect(await snapshot()).toEqual(before);
  });
});

describe.skipIf(kind !== "postgres")("the account carry-over on its own (real PostgreSQL only)", () => {
  it("skips an e-mail that already has an account and copies the rest", async () => {
    const imitation2 = await createSupabaseImitation(inject("dbAdminUrl"), `footy_adopt_acc_${process.pid}`, { originalApp: false });
    const sql = connect(imitation2.url, { max: 1 });
    const root = connect(imitation2.superUrl, { max: 1 });
    try {
      await root`insert into auth.users (id, email, encrypted_password, email_confirmed_at, created_at)
                 values (gen_random_uuid(), 'taken@example.com', extensions.crypt('x-password', extensions.gen_salt('bf', 4)), now(), now()),
                        (gen_random_uuid(), 'free@example.com', extensions.crypt('y-password', extensions.gen_salt('bf', 4)), now(), now())`;
      const { migrate } = await import("../../scripts/db/migrate");
      await migrate(sql, MIGRATIONS_DIR);
      await sql`insert into account.accounts (email, password_hash) values ('taken@example.com', extensions.crypt('mine', extensions.gen_salt('bf', 4)))`;
      const report = await sql.begin((tx) => copyAuthAccounts(tx));
      expect(report).toMatchObject({ candidates: 2, copied: 1, duplicateEmail: 1 });
    } finally {
      await sql.end({ timeout: 5 });
      await root.end({ timeout: 5 });
      await imitation2.drop();
    }
  });
});
