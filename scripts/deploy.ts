/**
 * `npm run deploy`: the deploy of docs/operations/deploy.md in one command, the database first:
 *
 *   DATABASE_URL="postgres://postgres:PASSWORD@db.<project-ref>.supabase.co:5432/postgres" npm run deploy [-- --dry-run]
 *
 * 1. the database: a database that still holds the original app's tables is refused with one line, nothing
 *    changed (run `npm run db:adopt` first; decision 026); otherwise the pending migrations are applied by the
 *    runner, which records them where `supabase db push` does (so either can apply the next ones);
 * 2. the build (remix vite:build);
 * 3. `wrangler deploy` of the web Worker, then of the scheduler Worker (it binds the web Worker's LiveMatchDay).
 *
 * --dry-run changes nothing: it checks the database and lists the pending migrations, builds, and runs
 * `wrangler deploy --dry-run` for both Workers (compiled, not uploaded).
 * Exit status: 0 deployed, 2 refused (the reason on one line), 1 failed (the failing step's error).
 */
import path from "node:path";
import postgres from "postgres";
import { ROOT, buildApp, run } from "./app-server";
import { listMigrations, migrate } from "./db/migrate";
import { OriginalTablesRefused, recordedVersions, refuseOriginalTables } from "./db/original-guard";
import { runIfMain } from "./db/run-main";

const log = (m: string) => console.log(`[deploy] ${m}`);

/** The database step; false when it refused (the line is printed). */
async function prepareDatabase(url: string, dryRun: boolean): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, prepare: false });
  try {
    if (dryRun) {
      await refuseOriginalTables(sql);
      const done = new Set(await recordedVersions(sql));
      const pending = (await listMigrations(path.join(ROOT, "supabase/migrations"))).filter((m) => !done.has(m.version));
      log(
        `${pending.length} migration(s) pending, not applied (--dry-run)${pending.length ? `: ${pending.map((m) => m.version).join(", ")}` : ""}`,
      );
    } else {
      const applied = await migrate(sql, path.join(ROOT, "supabase/migrations"));
      log(applied.length ? `applied ${applied.length} migration(s): ${applied.map((m) => m.version).join(", ")}` : "database up to date");
    }
    return true;
  } catch (error) {
    if (!(error instanceof OriginalTablesRefused)) throw error;
    console.error(error.message);
    return false;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function main() {
  const dryRun = process.argv.slice(2).includes("--dry-run");
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (the hosted project's direct connection, as postgres)");
    process.exitCode = 2;
    return;
  }
  if (!(await prepareDatabase(url, dryRun))) {
    process.exitCode = 2;
    return;
  }
  await buildApp(log);
  const wrangler = path.join(ROOT, "node_modules/.bin/wrangler");
  const dry = dryRun ? ["--dry-run"] : [];
  log("deploying the web Worker");
  await run(wrangler, ["deploy", ...dry]);
  log("deploying the scheduler Worker");
  await run(wrangler, ["deploy", "--config", "workers/scheduler/wrangler.toml", ...dry]);
}

runIfMain(import.meta.url, main);
