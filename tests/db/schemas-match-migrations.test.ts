/**
 * supabase/migrations/ (the forward-only deploy history) and supabase/schemas/ (the current definition, one file
 * per subject) define the same database: one empty database migrated with the runner, another built from the
 * schema files in the order of supabase/config.toml, and their pg_dump catalogs (schema, grants, comments and
 * data; scripts/db/catalog.ts) are equal. On failure the message names each object that differs, its subject file
 * and line, and the migration that last defines it (as `npm run db:diff` prints it).
 *
 * Needs Debian's pg_dump and a real PostgreSQL server no newer than it: on PGlite or without pg_dump it skips and
 * prints why.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { applySchemas, CONFIG_FILE, MIGRATIONS_DIR, SCHEMAS_DIR, schemaPaths } from "../../scripts/db/apply-schemas";
import { findPgDump } from "../../scripts/db/catalog";
import { migrate } from "../../scripts/db/migrate";
import { compareMigrationsWithSchemas } from "../../scripts/db/schema-diff";
import { useTestDatabase } from "../support/pg";

const pgDump = findPgDump();

let fromMigrations: Awaited<ReturnType<typeof useTestDatabase>> | undefined;
let fromSchemas: Awaited<ReturnType<typeof useTestDatabase>> | undefined;
let skipReason: string | null = null;

beforeAll(async () => {
  if (inject("dbKind") !== "postgres") {
    skipReason = `the test database is ${inject("dbKind")}, and pg_dump needs a PostgreSQL server`;
  } else if (!pgDump) {
    skipReason = "no pg_dump under /usr/lib/postgresql/<version>/bin (Debian's postgresql package is not installed)";
  }
  if (skipReason) return;

  fromMigrations = await useTestDatabase({ empty: true });
  fromSchemas = await useTestDatabase({ empty: true });
  const [{ server_version_num }] = await fromMigrations.sql<{ server_version_num: string }[]>`show server_version_num`;
  const serverMajor = Math.floor(Number(server_version_num) / 10000);
  if (serverMajor > pgDump!.major) skipReason = `the test server is PostgreSQL ${serverMajor}, newer than pg_dump ${pgDump!.major}`;
});

afterAll(async () => {
  await fromMigrations?.close();
  await fromSchemas?.close();
});

describe("supabase/schemas", () => {
  it("lists every schema file in supabase/config.toml [db.migrations] schema_paths, once", () => {
    const onDisk = readdirSync(SCHEMAS_DIR)
      .filter((f) => f.endsWith(".sql"))
      .map((f) => path.join(SCHEMAS_DIR, f))
      .sort();
    const listed = schemaPaths();
    expect([...listed].sort(), `${path.relative(process.cwd(), CONFIG_FILE)} schema_paths`).toEqual(onDisk);
  });

  it("apply cleanly, in that order, to an empty database (PostgreSQL and PGlite)", async () => {
    const db = await useTestDatabase({ empty: true });
    try {
      const applied = await applySchemas(db.sql, { markMigrationsApplied: true });
      expect(applied).toEqual(schemaPaths());
      // Recorded as applied: the runner has nothing left to do on a database built from the schema files.
      expect(await migrate(db.sql, MIGRATIONS_DIR)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("defines the same database as supabase/migrations (else: npm run db:diff)", async (ctx) => {
    if (skipReason) {
      console.log(`[schemas-match-migrations] skipped: ${skipReason}`);
      return ctx.skip(skipReason);
    }
    const { differences, compared, report } = await compareMigrationsWithSchemas(fromMigrations!.url, fromSchemas!.url, pgDump!);
    // Guard against a vacuous pass: the catalogs hold the whole database (126 functions, 26 tables, ...).
    expect(compared).toBeGreaterThan(500);
    if (differences.length) throw new Error(report);
  });
});
