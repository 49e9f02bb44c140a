/**
 * Recognises a database that still holds the original FootyCoach app's tables in schema public (the hosted project
 * before `npm run db:adopt`, decision 026). The migration runner refuses such a database before it changes
 * anything, and with it `npm start`, `npm run db:migrate` and `npm run deploy`: applied there, our migrations
 * would commit the first files and then stop on "relation profiles already exists" (issue 31).
 *
 * The rule: one of the original app's table names is a table in public, while the migration that creates the first
 * of ours with such a name (create_profiles) is not recorded as applied. Every table of ours with one of these
 * names is created by that migration or a later one (tests/db/original-guard.test.ts checks it), so before it is
 * recorded such a table can only be the original app's.
 */
import type postgres from "postgres";

export const ORIGINAL_TABLES_LINE =
  "This database holds the original FootyCoach tables: run npm run db:adopt first, see docs/operations/deploy.md";

/** The original app's tables (spec part 1 section 3, part 2 section 3). */
export const ORIGINAL_TABLE_NAMES = [
  "profiles",
  "competitions",
  "fixtures",
  "matchdays",
  "user_selections",
  "team_selections",
  "tickets",
  "scout_entries",
  "scout_predictions",
  "release_notes",
] as const;

/** supabase/migrations/20261122000300_create_profiles.sql: the first of ours to create one of those tables. */
export const FIRST_TABLE_MIGRATION = "20261122000300";

export class OriginalTablesRefused extends Error {
  constructor() {
    super(ORIGINAL_TABLES_LINE);
    this.name = "OriginalTablesRefused";
  }
}

type Sql = postgres.Sql | postgres.TransactionSql;

/** The migration versions recorded in the CLI's history table (none when it does not exist). */
export async function recordedVersions(sql: Sql): Promise<string[]> {
  const [{ present }] = await sql<{ present: boolean }[]>`
    select to_regclass('supabase_migrations.schema_migrations') is not null as present`;
  if (!present) return [];
  return (await sql<{ version: string }[]>`select version from supabase_migrations.schema_migrations order by 1`).map((r) => r.version);
}

export async function holdsOriginalTables(sql: Sql): Promise<boolean> {
  const [{ found }] = await sql<{ found: boolean }[]>`
    select exists (select 1 from pg_class
                    where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
                      and relname = any(${[...ORIGINAL_TABLE_NAMES]}::text[])) as found`;
  return found && !(await recordedVersions(sql)).includes(FIRST_TABLE_MIGRATION);
}

/** Throws OriginalTablesRefused (nothing read but the catalog and the history) when the original tables are there. */
export async function refuseOriginalTables(sql: Sql): Promise<void> {
  if (await holdsOriginalTables(sql)) throw new OriginalTablesRefused();
}
