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
