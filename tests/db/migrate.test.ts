/**
 * The migration runner: applies everything in order on an empty database, records it where the Supabase CLI
 * looks, and applies nothing the second time.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "../../scripts/db/migrate";
import { MIGRATIONS_DIR, useTestDatabase } from "../support/pg";

let migrated: Awaited<ReturnType<typeof useTestDatabase>>;
let empty: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  migrated = await useTestDatabase();
  empty = await useTestDatabase({ empty: true });
});
afterAll(async () => {
  await migrated?.close();
  await empty?.close();
});

describe("migrate()", () => {
  it("applies every migration in filename order on an empty database, then nothing", async () => {
    const files = await listMigrations(MIGRATIONS_DIR);
    expect(files.length).toBeGreaterThanOrEqual(13);
    const first = await migrate(empty.sql, MIGRATIONS_DIR);
    expect(first.map((m) => m.version)).toEqual(files.map((f) => f.version));
    expect([...first.map((m) => m.version)].sort()).toEqual(first.map((m) => m.version));

    const second = await migrate(empty.sql, MIGRATIONS_DIR);
    expect(second).toEqual([]);

    const history = await empty.sql<{ version: string; name: string; statements: string[] }[]>`
      select version, name, statements from supabase_migrations.schema_migrations order by version`;
    expect(history.map((h) => `${h.version}_${h.name}`)).toEqual(files.map((f) => `${f.version}_${f.name}`));
    expect(history.every((h) => Array.isArray(h.statements) && h.statements.length === 1 && h.statements[0].length > 0)).toBe(true);
  });

  it("finds nothing to do on a database made from the migrated template", async () => {
    expect(await migrate(migrated.sql, MIGRATIONS_DIR)).toEqual([]);
  });

  it("rolls a failing migration back completely and records nothing for it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "footy-migrations-"));
    try {
      await writeFile(path.join(dir, "20990101000000_create_probe.sql"), "create table public.migration_probe (id int);");
      await writeFile(path.join(dir, "20990101000100_break_things.sql"), "create table public.half_done (id int);\nselect 1/0;");
      await expect(migrate(migrated.sql, dir)).rejects.toThrow(/20990101000100_break_things\.sql failed/);
      const [state] = await migrated.sql`
        select to_regclass('public.migration_probe') is not null as probe,
               to_regclass('public.half_done') is not null as half,
               (select count(*)::int from supabase_migrations.schema_migrations where version like '2099%') as recorded`;
      expect(state).toEqual({ probe: true, half: false, recorded: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rejects badly named migration files", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "footy-migrations-"));
    try {
      await writeFile(path.join(dir, "add_things.sql"), "select 1;");
      await expect(listMigrations(dir)).rejects.toThrow(/<version>_<name>\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
