/**
 * Builds a database from supabase/schemas/: the per-subject files that hold the current definition of every
 * table, view, function, trigger, policy and grant (docs/database.md). The files are applied to an EMPTY database
 * in the order of supabase/config.toml `[db.migrations] schema_paths` (the order the Supabase CLI uses), all in
 * one transaction: a file that fails leaves nothing behind and is reported with its file and line.
 *
 *   DATABASE_URL=postgres://... npx tsx scripts/db/apply-schemas.ts [--mark-migrations-applied]
 *
 * --mark-migrations-applied records every file of supabase/migrations/ in supabase_migrations.schema_migrations,
 * as the runner would have (what `supabase migration repair --status applied` does), so that `npm start` and
 * scripts/db/migrate.ts later apply only migrations newer than the files. Only true when the schema files and
 * the migrations define the same database: tests/db/schemas-match-migrations.test.ts, `npm run db:diff`.
 *
 * Migrations stay the only way to change a deployed database; this is for fresh databases (tests, db:diff).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { HISTORY_DDL, listMigrations } from "./migrate";
import { runIfMain } from "./run-main";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SUPABASE_DIR = path.join(ROOT, "supabase");
export const SCHEMAS_DIR = path.join(SUPABASE_DIR, "schemas");
export const MIGRATIONS_DIR = path.join(SUPABASE_DIR, "migrations");
export const CONFIG_FILE = path.join(SUPABASE_DIR, "config.toml");

/**
 * The `schema_paths` of `[db.migrations]` in a Supabase config.toml, resolved against the supabase/ directory
 * (as the CLI does) and expanded: a `*` in a file name matches within its directory, in lexicographic order; a
 * file named twice is applied once, where it first appears.
 */
export function schemaPaths(configFile = CONFIG_FILE): string[] {
  const text = readFileSync(configFile, "utf8");
  const section = /^\[db\.migrations\][ \t]*$/m.exec(text);
  if (!section) throw new Error(`${configFile}: no [db.migrations] section`);
  const rest = text.slice(section.index + section[0].length);
  const body = rest.slice(0, /^\[/m.exec(rest)?.index ?? rest.length);
  const list = /^schema_paths\s*=\s*\[([^\]]*)\]/m.exec(body);
  if (!list) throw new Error(`${configFile}: no schema_paths in [db.migrations]`);
  const entries = [...list[1].replace(/#[^\n]*/g, "").matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]);
  const base = path.dirname(configFile);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.resolve(base, entry);
    const name = path.basename(full);
    const matches = name.includes("*")
      ? readdirSync(path.dirname(full))
          .filter((f) => new RegExp(`^${name.split("*").map(escapeRegExp).join(".*")}$`).test(f))
          .sort()
          .map((f) => path.join(path.dirname(full), f))
      : [full];
    for (const file of matches) if (!files.includes(file)) files.push(file);
  }
  if (!files.length) throw new Error(`${configFile}: schema_paths names no file`);
  return files;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface ApplyOptions {
  /** The files to apply, in order; default: schemaPaths(). */
  files?: string[];
  /** Record every migration as applied (see the header). */
  markMigrationsApplied?: boolean;
  migrationsDir?: string;
}

/** Applies the schema files to the empty database behind `sql`, in one transaction. Returns the files applied. */
export async function applySchemas(sql: postgres.Sql, options: ApplyOptions = {}): Promise<string[]> {
  const files = options.files ?? schemaPaths();
  const [{ used }] = await sql<{ used: boolean }[]>`
    select exists (select 1 from pg_catalog.pg_namespace where nspname in ('account', 'private')) as used`;
  if (used) throw new Error("the database is not empty (schema account or private exists): apply the schema files to a new database");

  await sql.begin(async (tx) => {
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      try {
        // Simple query protocol (no parameters): the whole file, several statements, in this transaction.
        await tx.unsafe(text);
      } catch (error) {
        const e = error as Error & { position?: string };
        const at = e.position ? `:${lineOf(text, Number(e.position))}` : "";
        e.message = `${path.relative(process.cwd(), file)}${at}: ${e.message}`;
        throw e;
      }
    }
    if (options.markMigrationsApplied) {
      await tx.unsafe(HISTORY_DDL);
      for (const m of await listMigrations(options.migrationsDir ?? MIGRATIONS_DIR)) {
        await tx`
          insert into supabase_migrations.schema_migrations (version, name, statements)
          values (${m.version}, ${m.name}, ${[readFileSync(m.file, "utf8")]})
          on conflict (version) do nothing`;
      }
    }
  });
  return files;
}

/** 1-based line of a 1-based character position (PostgreSQL's error position). */
function lineOf(text: string, position: number): number {
  return text.slice(0, Math.max(0, position - 1)).split("\n").length;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)");
    process.exit(2);
  }
  const sql = postgres(url, { max: 1, onnotice: () => {}, prepare: false });
  try {
    const files = await applySchemas(sql, { markMigrationsApplied: process.argv.includes("--mark-migrations-applied") });
    for (const f of files) console.log(`applied ${path.relative(process.cwd(), f)}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

runIfMain(import.meta.url, main);
