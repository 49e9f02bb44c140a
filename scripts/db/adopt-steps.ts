/**
 * The steps of `npm run db:adopt` (./adopt.ts) around the row copies: recognising the database, undoing what an
 * earlier migration run left on top of the original tables, moving the original objects aside, applying the
 * migrations inside the adoption's transaction.
 */
import { readFile } from "node:fs/promises";
import type postgres from "postgres";
import { listMigrations } from "./migrate";
import { FIRST_TABLE_MIGRATION, holdsOriginalTables, recordedVersions } from "./original-guard";
import { missingSpecColumns } from "./original-shape";

type Sql = postgres.Sql | postgres.TransactionSql;

export const ORIGINAL_SCHEMA = "original_app";
/** The original app's tables the adoption needs (spec part 2, section 3). */
const REQUIRED = ["profiles", "competitions", "fixtures", "team_selections", "tickets", "scout_entries", "scout_predictions"];

export class AdoptRefused extends Error {}

export async function counts(tx: Sql, schema: string, tables: readonly string[]) {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [{ exists }] = await tx<{ exists: boolean }[]>`select to_regclass(${`${schema}.${t}`}) is not null as exists`;
    if (!exists) continue;
    const [{ n }] = await tx.unsafe<{ n: number }[]>(`select count(*)::int as n from ${schema}.${t}`);
    out[t] = n;
  }
  return out;
}

/**
 * What is in the database: the original app's shape (adopt), an adoption already made (nothing to do), or
 * anything else (refused with the reason: an empty project takes `supabase db push`). The original's tables must
 * have the spec's columns the adoption reads (./original-shape.ts).
 */
export async function detect(sql: Sql): Promise<"original" | "adopted"> {
  const [s] = await sql<{ ours: boolean; kept: boolean; present: string[] }[]>`
    select to_regclass('account.accounts') is not null as ours,
           exists (select 1 from pg_namespace where nspname = ${ORIGINAL_SCHEMA}) as kept,
           coalesce((select array_agg(relname::text) from pg_class
                      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')), '{}') as present`;
  if (s.ours && s.kept) return "adopted";
  if (s.kept)
    throw new AdoptRefused(
      `Schema ${ORIGINAL_SCHEMA} exists but the FootyCoach schema does not: not an adoption this command made; look before going on.`,
    );
  // The FootyCoach schema over original tables is what an earlier migration run left (repairEarlyMigrations).
  if (s.ours && !(await holdsOriginalTables(sql)))
    throw new AdoptRefused(
      "This database already has the FootyCoach schema and no original_app: nothing to adopt (use `supabase db push` for new migrations).",
    );
  const missing = REQUIRED.filter((t) => !s.present.includes(t));
  if (missing.length === REQUIRED.length) {
    throw new AdoptRefused("No original app tables in schema public: this is an empty project; deploy with `supabase db push` instead.");
  }
  if (missing.length) throw new AdoptRefused(`Not the original app's shape: public.${missing.join(", public.")} missing.`);
  const [auth] = await sql<{ ok: boolean }[]>`select to_regclass('auth.users') is not null as ok`;
  if (!auth.ok) throw new AdoptRefused("auth.users not found: this is not a Supabase project.");
  const columns = await missingSpecColumns(sql);
  if (columns.length) throw new AdoptRefused(`Not the original app's shape: column ${columns.join(", ")} missing.`);
  return "original";
}

/**
 * Before the runner refused the original tables, `npm start` or a migration run on the original project applied
 * our first migrations and stopped at create_profiles ("relation profiles already exists"). What those two made
 * and nothing else made before them (the rest of the bootstrap is created only when missing, so it runs again
 * as a no-op) is dropped, and their versions leave the history, so the adoption applies every migration as on any
 * project. Only while no account exists: a database anyone signed into is never touched. Returns the versions.
 */
const EARLY_MIGRATIONS: Record<string, string> = {
  "20261122000200": "drop schema account cascade",
  "20261122000100": "drop function public.app_now(); drop schema private cascade",
};

export async function repairEarlyMigrations(tx: postgres.TransactionSql, dir: string): Promise<string[]> {
  const ours = new Set((await listMigrations(dir)).map((m) => m.version));
  const early = (await recordedVersions(tx))
    .filter((v) => ours.has(v) && v < FIRST_TABLE_MIGRATION)
    .sort()
    .reverse();
  if (!early.length) return [];
  const unknown = early.filter((v) => !EARLY_MIGRATIONS[v]);
  if (unknown.length) throw new AdoptRefused(`FootyCoach migrations ${unknown.join(", ")} are recorded over the original tables.`);
  if (early.includes("20261122000200")) {
    const [{ n }] = await tx.unsafe<{ n: number }[]>(`select count(*)::int as n from account.accounts`);
    if (n > 0) throw new AdoptRefused(`account.accounts holds ${n} account(s) beside the original tables: look before going on.`);
  }
  for (const v of early) await tx.unsafe(EARLY_MIGRATIONS[v]);
  await tx`delete from supabase_migrations.schema_migrations where version = any(${early})`;
  return early.reverse();
}

/** Moves every object of the original app out of schema public (extension members stay). Returns what it moved. */
export async function moveOriginalObjects(tx: postgres.TransactionSql): Promise<string[]> {
  const moved: string[] = [];
  const objects = await tx<{ kind: string; name: string }[]>`
    select case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence'
                          when 'f' then 'foreign table' else 'table' end as kind,
           format('public.%I', c.relname) as name
      from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
       -- sequences owned by a column move with their table
       and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))
       and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
    union all
    select case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end,
           format('public.%I(%s)', p.proname, pg_get_function_identity_arguments(p.oid))
      from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select 'type', format('public.%I', t.typname)
      from pg_type t
     where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'c', 'r')
       and (t.typtype <> 'c' or (select relkind from pg_class where oid = t.typrelid) = 'c')
       and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')`;
  for (const o of objects) {
    await tx.unsafe(`alter ${o.kind} ${o.name} set schema ${ORIGINAL_SCHEMA}`);
    moved.push(`${o.kind} ${o.name}`);
  }
  return moved;
}

/** Applies every migration inside the adoption's transaction, recording each as the runner does. */
export async function applyMigrations(tx: postgres.TransactionSql, dir: string): Promise<number> {
  let applied = 0;
  for (const m of await listMigrations(dir)) {
    const [done] = await tx`select 1 from supabase_migrations.schema_migrations where version = ${m.version}`;
    if (done) continue;
    const text = await readFile(m.file, "utf8");
    try {
      await tx.unsafe(text);
    } catch (error) {
      (error as Error).message = `migration ${m.version}_${m.name} failed: ${(error as Error).message}`;
      throw error;
    }
    await tx`insert into supabase_migrations.schema_migrations (version, name, statements) values (${m.version}, ${m.name}, ${[text]})`;
    applied++;
  }
  return applied;
}
