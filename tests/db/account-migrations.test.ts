/**
 * The account migrations of 2026-11-25 on a database that already has players (as the hosted one and every
 * developer's .data/ have): migrated up to the version before, given data, then migrated to the end.
 */
import { mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "../../scripts/db/migrate";
import { MIGRATIONS_DIR, useTestDatabase } from "../support/pg";

type TestDb = Awaited<ReturnType<typeof useTestDatabase>>;
const opened: TestDb[] = [];

afterAll(async () => {
  for (const db of opened) await db.close();
});

/** An empty database migrated up to (not including) `version`. */
async function migratedBefore(version: string): Promise<TestDb> {
  const db = await useTestDatabase({ empty: true });
  opened.push(db);
  const dir = await mkdtemp(path.join(os.tmpdir(), "footy-before-"));
  try {
    for (const m of await listMigrations(MIGRATIONS_DIR)) {
      if (m.version < version) await symlink(m.file, path.join(dir, path.basename(m.file)));
    }
    await migrate(db.sql, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return db;
}

describe("e-mail confirmation (20261125130000)", () => {
  it("marks the accounts that exist at migration time confirmed, and leaves their other columns alone", async () => {
    const db = await migratedBefore("20261125130000");
    const createdAt = new Date("2026-10-01T09:00:00Z");
    const updatedAt = new Date("2026-10-02T09:00:00Z");
    await db.sql`insert into account.accounts (email, password_hash, created_at, updated_at)
                 values ('old.one@example.test', 'x', ${createdAt}, ${updatedAt}), ('old.two@example.test', 'x', ${createdAt}, ${updatedAt})`;
    await migrate(db.sql, MIGRATIONS_DIR);
    const rows = await db.sql<{ email: string; confirmed_at: Date; updated_at: Date }[]>`
      select email, confirmed_at, updated_at from account.accounts order by email`;
    expect(rows).toEqual([
      { email: "old.one@example.test", confirmed_at: createdAt, updated_at: updatedAt },
      { email: "old.two@example.test", confirmed_at: createdAt, updated_at: updatedAt },
    ]);
    // A new account is unconfirmed until its link is opened.
    const [fresh] =
      await db.sql`insert into account.accounts (email, password_hash) values ('new@example.test', 'x') returning confirmed_at`;
    expect(fresh.confirmed_at).toBeNull();
  });
});

describe("one namespace for usernames and display names (20261125130300)", () => {
  async function withProfiles(profiles: { username: string; display_name?: string }[]) {
    const db = await migratedBefore("20261125130300");
    for (const p of profiles) {
      const [{ id }] = await db.sql`insert into account.accounts (email, password_hash, confirmed_at)
                                    values (${`${p.username.toLowerCase()}@example.test`}, 'x', now()) returning id`;
      await db.sql`insert into public.profiles (id, username, date_of_birth, gender, display_name)
                   values (${id}, ${p.username}, '1990-01-01', 'male', ${p.display_name ?? null})`;
    }
    return db;
  }

  it("stops with the list of clashing names when profiles already clash, and changes nothing", async () => {
    const db = await withProfiles([
      { username: "DemoPlayer" },
      { username: "Impostor", display_name: "demoplayer" },
      { username: "Fan", display_name: "Gaffer" },
      { username: "Other", display_name: "GAFFER" },
      { username: "Innocent", display_name: "Innocent" },
    ]);
    const failure = migrate(db.sql, MIGRATIONS_DIR);
    await expect(failure).rejects.toThrow(/20261125130300_create_profile_names\.sql failed: .*these clash: /);
    const message = await failure.catch((e: Error) => e.message);
    for (const name of ["username 'DemoPlayer'", "display name 'demoplayer'", "display name 'Gaffer'", "display name 'GAFFER'"]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain("Innocent");
    const [state] = await db.sql`
      select to_regclass('private.profile_names') is null as no_table,
             (select count(*)::int from supabase_migrations.schema_migrations where version >= '20261125130300') as recorded`;
    expect(state).toEqual({ no_table: true, recorded: 0 });
  });

  it("records the names in use when nothing clashes (a player's own two names may be equal)", async () => {
    const db = await withProfiles([
      { username: "Alpha", display_name: "alpha" },
      { username: "Beta", display_name: "The Beta" },
    ]);
    await migrate(db.sql, MIGRATIONS_DIR);
    const rows = await db.sql`select n.name_key, p.username from private.profile_names n join public.profiles p on p.id = n.user_id
                               order by n.name_key`;
    expect(rows).toEqual([
      { name_key: "alpha", username: "Alpha" },
      { name_key: "beta", username: "Beta" },
      { name_key: "the beta", username: "Beta" },
    ]);
  });
});
