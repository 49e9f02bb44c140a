/**
 * A database that still holds the original app's tables (the hosted project before `npm run db:adopt`) is refused
 * by `npm start`, `npm run db:migrate` and `npm run deploy` with one line and a non-zero exit, changing nothing
 * (issue 31: `npm start` used to commit two migrations and die on "relation profiles already exists"). And
 * db:adopt repairs a project that the old runner left that way.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adopt } from "../../scripts/db/adopt";
import { dumpCatalog, findPgDump } from "../../scripts/db/catalog";
import { HISTORY_DDL, listMigrations, migrate } from "../../scripts/db/migrate";
import { FIRST_TABLE_MIGRATION, ORIGINAL_TABLE_NAMES, ORIGINAL_TABLES_LINE, OriginalTablesRefused } from "../../scripts/db/original-guard";
import { logInThroughApp } from "../support/app-login";
import { connect, MIGRATIONS_DIR } from "../support/pg";
import { createSupabaseImitation, PEOPLE, seedOriginal, SMALL, type Imitation } from "../support/supabase-imitation";

const kind = inject("dbKind");
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the rule that recognises the original tables", () => {
  it("holds: no migration before create_profiles creates a table with an original name, and create_profiles makes profiles", async () => {
    const migrations = await listMigrations(MIGRATIONS_DIR);
    const creates = new RegExp(`create table (if not exists )?public\\.(${ORIGINAL_TABLE_NAMES.join("|")})\\b`, "i");
    for (const m of migrations.filter((x) => x.version < FIRST_TABLE_MIGRATION)) {
      expect(creates.test(await readFile(m.file, "utf8")), m.name).toBe(false);
    }
    const profiles = migrations.find((m) => m.version === FIRST_TABLE_MIGRATION);
    expect(await readFile(profiles!.file, "utf8")).toMatch(/create table public\.profiles \(/);
  });
});

/** Runs one of the project's commands as `npm run` would (tsx), against the imitation. */
function runCommand(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [script, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(kind !== "postgres")("commands on a database holding the original tables (real PostgreSQL only)", () => {
  let imitation: Imitation;
  let dataDir: string;
  const pgDump = findPgDump();

  /** Everything pg_dump sees (schema and rows, as `npm run db:diff` compares them) and the migration history. */
  async function snapshot() {
    const catalog = await dumpCatalog(imitation.superUrl, pgDump!);
    const su = connect(imitation.superUrl, { max: 1 });
    try {
      const history = await su`select version, name from supabase_migrations.schema_migrations order by version`;
      const schemas = await su`select nspname from pg_namespace order by 1`;
      return { catalog: [...catalog.entries()], history, schemas };
    } finally {
      await su.end({ timeout: 5 });
    }
  }

  beforeAll(async () => {
    imitation = await createSupabaseImitation(inject("dbAdminUrl"), `footy_guard_${process.pid}`);
    await seedOriginal(imitation.superUrl, SMALL);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "footy-guard-"));
  }, 120_000);

  afterAll(async () => {
    await imitation?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const commands = [
    { name: "npm run db:migrate", script: "scripts/db/migrate.ts", args: [] },
    { name: "npm start", script: "scripts/start.ts", args: [] },
    { name: "npm run deploy", script: "scripts/deploy.ts", args: [] },
    { name: "npm run deploy -- --dry-run", script: "scripts/deploy.ts", args: ["--dry-run"] },
  ];
  it.each(commands)("$name refuses with one line, exit 2, and changes nothing", async ({ script, args }) => {
    expect(pgDump).not.toBeNull();
    const before = await snapshot();
    const run = await runCommand(script, args, { DATABASE_URL: imitation.url, SKIP_BUILD: "1", DATA_DIR: dataDir, PORT: "0" });
    expect(run.stderr).toBe(`${ORIGINAL_TABLES_LINE}\n`);
    expect(run.stdout).toBe("");
    expect(run.code).toBe(2);
    expect(await snapshot()).toEqual(before);
  });

  it("the runner itself refuses before writing anything (the path npm start's prepareDatabase takes)", async () => {
    const sql = connect(imitation.url, { max: 1 });
    try {
      await expect(migrate(sql, MIGRATIONS_DIR)).rejects.toBeInstanceOf(OriginalTablesRefused);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

describe.skipIf(kind !== "postgres")("db:adopt after the old runner's half migration (real PostgreSQL only)", () => {
  let imitation: Imitation;

  beforeAll(async () => {
    imitation = await createSupabaseImitation(inject("dbAdminUrl"), `footy_half_${process.pid}`);
    await seedOriginal(imitation.superUrl, SMALL);
    // What `npm start` did before the guard: its history table, then each migration committed until
    // create_profiles failed on "relation profiles already exists".
    const owner = connect(imitation.url, { max: 1 });
    try {
      await owner.unsafe(HISTORY_DDL);
      for (const m of (await listMigrations(MIGRATIONS_DIR)).filter((x) => x.version < FIRST_TABLE_MIGRATION)) {
        await owner.begin(async (tx) => {
          await tx.unsafe(await readFile(m.file, "utf8"));
          await tx`insert into supabase_migrations.schema_migrations (version, name) values (${m.version}, ${m.name})`;
        });
      }
      await expect(
        owner.unsafe(await readFile(path.join(MIGRATIONS_DIR, `${FIRST_TABLE_MIGRATION}_create_profiles.sql`), "utf8")),
      ).rejects.toThrow(/relation "profiles" already exists/);
    } finally {
      await owner.end({ timeout: 5 });
    }
  }, 120_000);

  afterAll(() => imitation?.drop());

  it("is still refused by the runner, then adopted: the leftovers undone, every migration applied, players sign in", async () => {
    const owner = connect(imitation.url, { max: 1 });
    try {
      await expect(migrate(owner, MIGRATIONS_DIR)).rejects.toBeInstanceOf(OriginalTablesRefused);
      const report = await adopt(owner, MIGRATIONS_DIR);
      expect(report.state).toBe("adopted");
      expect(report.repaired).toEqual(["20261122000100", "20261122000200"]);
      expect(report.migrationsApplied).toBe((await listMigrations(MIGRATIONS_DIR)).length);
      expect(report.moved).not.toContain("function public.app_now()");
      expect(await migrate(owner, MIGRATIONS_DIR)).toEqual([]);
    } finally {
      await owner.end({ timeout: 5 });
    }
    expect(await logInThroughApp(imitation.url, PEOPLE.bob.email, PEOPLE.bob.password)).toMatchObject({
      status: 302,
      user: { username: "bob" },
    });
  });
});
