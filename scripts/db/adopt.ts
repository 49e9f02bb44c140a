/**
 * Adopts the original app's hosted Supabase database in place (decision 019, docs/operations/deploy.md):
 *
 *   DATABASE_URL=postgres://postgres:...@db.<ref>.supabase.co:5432/postgres npm run db:adopt
 *
 * In ONE transaction: moves everything the original app has in schema public (tables with their rows, views,
 * functions, types) into schema original_app, and its migration history into original_app.schema_migrations;
 * applies supabase/migrations and records them where the Supabase CLI looks; copies auth.users into
 * account.accounts (corrected carry-over, ./adopt-accounts.ts); copies the original rows into the current tables
 * (./adopt-rows.ts). Nothing is deleted: every original row stays in original_app. Any failure rolls all of it
 * back. Run again, it finds the adoption recorded and changes nothing.
 */
import { readFile } from "node:fs/promises";
import postgres from "postgres";
import { copyAuthAccounts, type AccountsReport } from "./adopt-accounts";
import { copyOriginalRows, ORIGINAL_TABLES, CURRENT_TABLES } from "./adopt-rows";
import { HISTORY_DDL, listMigrations } from "./migrate";
import { runIfMain } from "./run-main";

export const ORIGINAL_SCHEMA = "original_app";
/** The original app's tables the adoption needs (spec part 2, section 3). */
const REQUIRED = ["profiles", "competitions", "fixtures", "team_selections", "tickets", "scout_entries", "scout_predictions"];
/** Same advisory lock as the migration runner: an adoption and a migration never run at once. */
const LOCK = [7301, 1] as const;

export type AdoptState = "adopted" | "already-adopted";

export interface AdoptReport {
  state: AdoptState;
  /** Rows per original table before (original_app.* when already adopted). */
  before: Record<string, number>;
  /** Rows per current table after. */
  after: Record<string, number>;
  /** Original rows that have no place in the current tables (kept in original_app), per table. */
  notCarried: Record<string, number>;
  accounts: AccountsReport | null;
  moved: string[];
  migrationsApplied: number;
  originalVersions: string[];
  ms: number;
}

export class AdoptRefused extends Error {}

async function counts(tx: postgres.Sql | postgres.TransactionSql, schema: string, tables: readonly string[]) {
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
 * anything else (refused with the reason: an empty project takes `supabase db push`).
 */
async function detect(sql: postgres.Sql | postgres.TransactionSql): Promise<"original" | "adopted"> {
  const [s] = await sql<{ ours: boolean; kept: boolean; present: string[] }[]>`
    select to_regclass('account.accounts') is not null as ours,
           exists (select 1 from pg_namespace where nspname = ${ORIGINAL_SCHEMA}) as kept,
           coalesce((select array_agg(relname::text) from pg_class
                      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')), '{}') as present`;
  if (s.ours && s.kept) return "adopted";
  if (s.ours)
    throw new AdoptRefused(
      "This database already has the FootyCoach schema and no original_app: nothing to adopt (use `supabase db push` for new migrations).",
    );
  if (s.kept)
    throw new AdoptRefused(
      `Schema ${ORIGINAL_SCHEMA} exists but the FootyCoach schema does not: not an adoption this command made; look before going on.`,
    );
  const missing = REQUIRED.filter((t) => !s.present.includes(t));
  if (missing.length === REQUIRED.length) {
    throw new AdoptRefused("No original app tables in schema public: this is an empty project; deploy with `supabase db push` instead.");
  }
  if (missing.length) throw new AdoptRefused(`Not the original app's shape: public.${missing.join(", public.")} missing.`);
  const [auth] = await sql<{ ok: boolean }[]>`select to_regclass('auth.users') is not null as ok`;
  if (!auth.ok) throw new AdoptRefused("auth.users not found: this is not a Supabase project.");
  return "original";
}

/** Moves every object of the original app out of schema public (extension members stay). Returns what it moved. */
async function moveOriginalObjects(tx: postgres.TransactionSql): Promise<string[]> {
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
async function applyMigrations(tx: postgres.TransactionSql, dir: string): Promise<number> {
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

export async function adopt(sql: postgres.Sql, dir = "supabase/migrations"): Promise<AdoptReport> {
  const started = performance.now();
  const report = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK[0]}, ${LOCK[1]})`;
    if ((await detect(tx)) === "adopted") {
      const [rec] = await tx.unsafe<{ report: AdoptReport }[]>(
        `select report from ${ORIGINAL_SCHEMA}.adoption order by adopted_at desc limit 1`,
      );
      return {
        ...rec.report,
        state: "already-adopted" as const,
        after: await counts(tx, "public", CURRENT_TABLES),
        migrationsApplied: 0,
        moved: [],
      };
    }
    const before = { ...(await counts(tx, "public", ORIGINAL_TABLES)), "auth.users": (await counts(tx, "auth", ["users"])).users };

    await tx.unsafe(`create schema ${ORIGINAL_SCHEMA}`);
    // The kept originals are evidence, not API: no role but the owner reads them (PostgREST never exposes them).
    await tx.unsafe(`revoke all on schema ${ORIGINAL_SCHEMA} from public, anon, authenticated, service_role`);
    const moved = await moveOriginalObjects(tx);

    // The original history's versions are unknown to supabase/migrations: kept aside, so `supabase db push`
    // stops answering "Remote migration versions not found in local migrations directory".
    await tx.unsafe(HISTORY_DDL);
    const ours = new Set((await listMigrations(dir)).map((m) => m.version));
    await tx.unsafe(`create table ${ORIGINAL_SCHEMA}.schema_migrations as select * from supabase_migrations.schema_migrations`);
    const originalVersions = (
      await tx<
        { version: string }[]
      >`delete from supabase_migrations.schema_migrations where not (version = any(${[...ours]})) returning version`
    )
      .map((r) => r.version)
      .sort();

    const migrationsApplied = await applyMigrations(tx, dir);
    const accounts = await copyAuthAccounts(tx);
    const notCarried = await copyOriginalRows(tx);

    const result: AdoptReport = {
      state: "adopted",
      before,
      after: await counts(tx, "public", CURRENT_TABLES),
      notCarried,
      accounts,
      moved,
      migrationsApplied,
      originalVersions,
      ms: 0,
    };
    result.after["account.accounts"] = (await counts(tx, "account", ["accounts"])).accounts;
    await tx.unsafe(`create table ${ORIGINAL_SCHEMA}.adoption (adopted_at timestamptz primary key default now(), report jsonb not null)`);
    await tx.unsafe(`insert into ${ORIGINAL_SCHEMA}.adoption (report) values ($1::jsonb)`, [JSON.stringify(result)]);
    return result;
  });
  if (report.state === "already-adopted") report.after["account.accounts"] = (await counts(sql, "account", ["accounts"])).accounts;
  report.ms = Math.round(performance.now() - started);
  return report;
}

export function formatReport(r: AdoptReport): string {
  const lines: string[] = [];
  lines.push(
    r.state === "adopted"
      ? `Adopted the original database in ${(r.ms / 1000).toFixed(1)} s (one transaction).`
      : `Already adopted: nothing changed (${(r.ms / 1000).toFixed(1)} s). The figures of the adoption follow.`,
  );
  if (r.state === "adopted")
    lines.push(`Migrations applied: ${r.migrationsApplied}; original objects moved to ${ORIGINAL_SCHEMA}: ${r.moved.length}.`);
  lines.push(`Original migration history kept in ${ORIGINAL_SCHEMA}.schema_migrations: ${r.originalVersions.join(", ") || "(none)"}.`);
  lines.push("", "rows before (original)            rows after (current)");
  const names = [...new Set([...Object.keys(r.before), ...Object.keys(r.after)])].sort();
  for (const t of names) {
    const b = r.before[t] === undefined ? "" : String(r.before[t]);
    const a = r.after[t] === undefined ? "" : String(r.after[t]);
    const kept = r.notCarried[t] ? `  (${r.notCarried[t]} kept only in ${ORIGINAL_SCHEMA}.${t})` : "";
    lines.push(`  ${t.padEnd(22)} ${b.padStart(8)}      ${a.padStart(8)}${kept}`);
  }
  if (r.accounts) {
    const a = r.accounts;
    lines.push(
      "",
      `Accounts from auth.users: ${a.candidates} users, ${a.copied} copied (${a.rewrittenPrefix} $2b$/$2y$ hashes rewritten to $2a$),`,
      `  ${a.unconfirmed} unconfirmed (kept: they log in after confirming their e-mail) and ${a.banned} banned (kept, cannot log in: login_hold),`,
      `  ${a.needReset} need a password reset (argon2 or no password: login_hold = password_reset; they use Forgot Password),`,
      `  skipped: ${a.softDeleted} soft-deleted, ${a.duplicateEmail} e-mail already taken, ${a.noEmail} without a usable e-mail.`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (the hosted project's direct connection, as postgres)");
    process.exit(2);
  }
  const sql = postgres(url, { max: 1, onnotice: () => {}, prepare: false });
  try {
    console.log(formatReport(await adopt(sql, process.argv[2] ?? "supabase/migrations")));
  } catch (error) {
    if (error instanceof AdoptRefused) {
      console.error(`db:adopt refused: ${error.message}`);
      process.exitCode = 2;
    } else {
      console.error(`db:adopt failed, nothing was changed (the transaction rolled back): ${(error as Error).message}`);
      process.exitCode = 1;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

runIfMain(import.meta.url, main);
