/**
 * Do supabase/migrations/ and supabase/schemas/ define the same database? Builds one empty database with each on
 * a throwaway PostgreSQL (tests/support/pg.ts), dumps both catalogs (scripts/db/catalog.ts) and prints every
 * difference with the object it belongs to, its subject file and line, and the migration that last defines it.
 * Exit status 1 when they differ.
 *
 *   npm run db:diff            (= npx tsx scripts/db/schema-diff.ts)
 *
 * The same comparison is tests/db/schemas-match-migrations.test.ts. Use it after writing a migration (did the
 * subject file get the same change?) and after merging other branches' migrations (what is left to fold in?).
 */
import path from "node:path";
import { connect, createTestDatabase, dropTestDatabase, startPostgres } from "../../tests/support/pg";
import { applySchemas, MIGRATIONS_DIR, ROOT, schemaPaths } from "./apply-schemas";
import { compareCatalogs, dumpCatalog, findPgDump, formatDifferences, readSqlFiles, type Difference, type PgDump } from "./catalog";
import { listMigrations, migrate } from "./migrate";
import { runIfMain } from "./run-main";

export interface Comparison {
  differences: Difference[];
  /** Entries compared (in the union of both catalogs). */
  compared: number;
  /** The readable report ("" when there is no difference). */
  report: string;
}

/**
 * Migrates the empty database at `migrationsUrl`, applies the schema files to the empty database at
 * `schemasUrl` (recording the migrations as applied, so the history table exists in both), and compares them.
 */
export async function compareMigrationsWithSchemas(migrationsUrl: string, schemasUrl: string, pgDump: PgDump): Promise<Comparison> {
  const files = schemaPaths();
  const a = connect(migrationsUrl, { max: 1 });
  try {
    await migrate(a, MIGRATIONS_DIR);
  } finally {
    await a.end({ timeout: 5 });
  }
  const b = connect(schemasUrl, { max: 1 });
  try {
    await applySchemas(b, { files, markMigrationsApplied: true });
  } finally {
    await b.end({ timeout: 5 });
  }
  const [fromMigrations, fromSchemas] = await Promise.all([dumpCatalog(migrationsUrl, pgDump), dumpCatalog(schemasUrl, pgDump)]);
  const differences = compareCatalogs(fromMigrations, fromSchemas);
  const compared = new Set([...fromMigrations.keys(), ...fromSchemas.keys()]).size;
  const report = differences.length
    ? formatDifferences(
        differences,
        readSqlFiles(files, ROOT),
        readSqlFiles(
          (await listMigrations(MIGRATIONS_DIR)).map((m) => m.file),
          ROOT,
        ),
      )
    : "";
  return { differences, compared, report };
}

async function main() {
  const pgDump = findPgDump();
  if (!pgDump) throw new Error("pg_dump not found under /usr/lib/postgresql/<version>/bin: install Debian's postgresql package");
  const server = await startPostgres();
  try {
    if (server.kind !== "postgres") {
      throw new Error(`pg_dump needs a PostgreSQL server, but startPostgres() gave ${server.kind} (TEST_DB / TEST_DATABASE_URL?)`);
    }
    const migrationsUrl = await createTestDatabase(server.url, { empty: true });
    const schemasUrl = await createTestDatabase(server.url, { empty: true });
    try {
      const { differences, compared, report } = await compareMigrationsWithSchemas(migrationsUrl, schemasUrl, pgDump);
      if (differences.length) {
        console.log(report);
        process.exitCode = 1;
      } else {
        const dir = path.relative(process.cwd(), path.join(ROOT, "supabase"));
        console.log(
          `${dir}/migrations and ${dir}/schemas define the same database (${compared} catalog entries compared with pg_dump ${pgDump.major}).`,
        );
      }
    } finally {
      await dropTestDatabase(migrationsUrl);
      await dropTestDatabase(schemasUrl);
    }
  } finally {
    await server.stop();
  }
}

runIfMain(import.meta.url, main);
