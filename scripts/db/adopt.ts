/**
 * Adopts the original app's hosted Supabase database in place (decisions 019 and 026, docs/operations/deploy.md):
 *
 *   DATABASE_URL=postgres://postgres:...@db.<ref>.supabase.co:5432/postgres npm run db:adopt
 *
 * In ONE transaction: reads what the original has beyond the spec's columns (information_schema) and its
 * knockout_leaderboard_view; moves everything the original app has in schema public (tables with their rows,
 * views, functions, types) into schema original_app, and its migration history into
 * original_app.schema_migrations; applies supabase/migrations and records them where the Supabase CLI looks;
 * copies auth.users into account.accounts (./adopt-accounts.ts); copies the original rows into the current tables
 * (./adopt-rows.ts, ./adopt-memberships.ts). Nothing is deleted: every original row stays in original_app. Any
 * failure rolls all of it back. Run again, it finds the adoption recorded and changes nothing.
 */
import postgres from "postgres";
import { copyAuthAccounts, type AccountsReport } from "./adopt-accounts";
import { snapshotKnockoutView, type EliminationSources, type ViewSnapshot } from "./adopt-memberships";
import { formatReport } from "./adopt-report";
import { copyOriginalRows, ORIGINAL_TABLES, CURRENT_TABLES } from "./adopt-rows";
import { AdoptRefused, applyMigrations, counts, detect, moveOriginalObjects, ORIGINAL_SCHEMA, repairEarlyMigrations } from "./adopt-steps";
import { HISTORY_DDL, listMigrations } from "./migrate";
import { Columns, optionalColumnsPresent } from "./original-shape";
import { runIfMain } from "./run-main";

export { AdoptRefused, formatReport, ORIGINAL_SCHEMA };

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
  /** Columns beyond the spec's lists that the original has and the adoption read (schema.table.column). */
  optionalColumns?: string[];
  /** The original knockout_leaderboard_view: read, absent, or there but failing when read. */
  knockoutView?: ViewSnapshot;
  eliminations?: EliminationSources;
  newRegistrationKeys?: number;
  /** Our first migrations, applied over the original tables by an earlier run, undone and applied again. */
  repaired?: string[];
  ms: number;
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
    // What the original shows beyond the spec, read while it is still where the original app put it.
    const optionalColumns = await optionalColumnsPresent(tx);
    const knockoutView = await snapshotKnockoutView(tx, await Columns.of(tx, "public"));
    const repaired = await repairEarlyMigrations(tx, dir);

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
    const rows = await copyOriginalRows(tx);

    const result: AdoptReport = {
      state: "adopted",
      before,
      after: await counts(tx, "public", CURRENT_TABLES),
      notCarried: rows.notCarried,
      accounts,
      moved,
      migrationsApplied,
      originalVersions,
      optionalColumns,
      knockoutView,
      eliminations: rows.eliminations,
      newRegistrationKeys: rows.newRegistrationKeys,
      repaired,
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
