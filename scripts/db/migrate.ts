/**
 * Applies supabase/migrations/<version>_<name>.sql in filename order, each file in its own transaction, and
 * records it in supabase_migrations.schema_migrations: the table the Supabase CLI keeps, so `supabase db push`
 * and this runner agree on what has been applied. Idempotent: a second run applies nothing. A database that
 * still holds the original app's tables is refused before anything is written (./original-guard.ts).
 *
 *   DATABASE_URL=postgres://... npm run db:migrate [dir]
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import { OriginalTablesRefused, refuseOriginalTables } from "./original-guard";
import { runIfMain } from "./run-main";

export interface Migration {
  version: string;
  name: string;
  file: string;
}

const FILE_PATTERN = /^(\d+)_(.+)\.sql$/;
/** Advisory lock key (class 7301 = FootyCoach, 1 = migrations) held by each migration's transaction. */
const LOCK = [7301, 1] as const;

export async function listMigrations(dir = "supabase/migrations"): Promise<Migration[]> {
  const entries = await readdir(dir);
  const migrations: Migration[] = [];
  for (const entry of entries) {
    if (!entry.endsWith(".sql")) continue;
    const match = FILE_PATTERN.exec(entry);
    if (!match) throw new Error(`Migration file name must be <version>_<name>.sql: ${entry}`);
    migrations.push({ version: match[1], name: match[2], file: path.join(dir, entry) });
  }
  migrations.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].version === migrations[i - 1].version) {
      throw new Error(`Two migrations share version ${migrations[i].version}`);
    }
  }
  return migrations;
}

/**
 * Same shape as the Supabase CLI's history table (created only if missing). Also used by
 * scripts/db/apply-schemas.ts to record the migrations a database built from supabase/schemas/ already has.
 */
export const HISTORY_DDL = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
  alter table supabase_migrations.schema_migrations add column if not exists statements text[];
  alter table supabase_migrations.schema_migrations add column if not exists name text;
`;

/**
 * Applies pending migrations; returns the ones applied (empty when up to date). Safe to run concurrently:
 * each migration's transaction takes an advisory lock and re-checks the history first. Throws
 * OriginalTablesRefused, having written nothing, on a database that still holds the original app's tables.
 */
export async function migrate(sql: postgres.Sql, dir = "supabase/migrations"): Promise<Migration[]> {
  const migrations = await listMigrations(dir);
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK[0]}, ${LOCK[1]})`;
    await refuseOriginalTables(tx);
    await tx.unsafe(HISTORY_DDL);
  });

  const applied: Migration[] = [];
  const done = new Set((await sql<{ version: string }[]>`select version from supabase_migrations.schema_migrations`).map((r) => r.version));
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const text = await readFile(migration.file, "utf8");
    const ran = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${LOCK[0]}, ${LOCK[1]})`;
      const [already] = await tx`
        select 1 from supabase_migrations.schema_migrations where version = ${migration.version}`;
      if (already) return false;
      try {
        // Simple query protocol (no parameters): the whole file, several statements, in this transaction.
        await tx.unsafe(text);
      } catch (error) {
        const e = error as Error & { position?: string };
        e.message = `migration ${path.basename(migration.file)} failed: ${e.message}`;
        throw e;
      }
      await tx`
        insert into supabase_migrations.schema_migrations (version, name, statements)
        values (${migration.version}, ${migration.name}, ${[text]})`;
      return true;
    });
    if (ran) applied.push(migration);
  }
  return applied;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)");
    process.exit(2);
  }
  const dir = process.argv[2] ?? "supabase/migrations";
  const sql = postgres(url, { max: 1, onnotice: () => {}, prepare: false });
  try {
    const applied = await migrate(sql, dir);
    if (applied.length === 0) console.log("Database is up to date; no migration applied.");
    for (const m of applied) console.log(`applied ${m.version}_${m.name}`);
  } catch (error) {
    if (!(error instanceof OriginalTablesRefused)) throw error;
    console.error(error.message);
    process.exitCode = 2;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

runIfMain(import.meta.url, main);
