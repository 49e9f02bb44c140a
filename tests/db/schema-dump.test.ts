/**
 * supabase/schema.sql is the migrations' result: migrating a fresh database and dumping it with the same code
 * as `npm run db:schema` (scripts/db/dump-schema.ts) gives the checked-in file byte for byte.
 *
 * Needs Debian's pg_dump and a real PostgreSQL server: on PGlite, or without pg_dump, or with a pg_dump of
 * another major version than the one the file was made with (its output differs a little), it skips and says why.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findPgDump, migratedSchema, parseDump, pgDumpSchema, SCHEMA_FILE } from "../../scripts/db/dump-schema";
import { useTestDatabase } from "../support/pg";

const FILE = path.relative(process.cwd(), SCHEMA_FILE);
const pgDump = findPgDump();

let db: Awaited<ReturnType<typeof useTestDatabase>> | undefined;
let checkedIn: string | null = null;
let skipReason: string | null = null;

beforeAll(async () => {
  checkedIn = await readFile(SCHEMA_FILE, "utf8").catch(() => null);
  const recordedMajor = Number(/^-- Dumped with pg_dump (\d+)\b/m.exec(checkedIn ?? "")?.[1] ?? NaN);
  if (inject("dbKind") !== "postgres") {
    skipReason = `the test database is ${inject("dbKind")}, and pg_dump needs a PostgreSQL server`;
  } else if (!pgDump) {
    skipReason = "no pg_dump under /usr/lib/postgresql/<version>/bin (Debian's postgresql package is not installed)";
  } else if (checkedIn !== null && recordedMajor !== pgDump.major) {
    skipReason = `${FILE} was dumped with pg_dump ${recordedMajor}, this machine has pg_dump ${pgDump.major}, whose output differs`;
  }
  if (skipReason) return;

  db = await useTestDatabase({ empty: true });
  const [{ server_version_num }] = await db.sql<{ server_version_num: string }[]>`show server_version_num`;
  const serverMajor = Math.floor(Number(server_version_num) / 10000);
  if (serverMajor > pgDump!.major) {
    skipReason = `the test server is PostgreSQL ${serverMajor}, newer than pg_dump ${pgDump!.major}`;
  }
});

afterAll(async () => {
  await db?.close();
});

describe(FILE, () => {
  it("is what the migrations give (else: run npm run db:schema)", async (ctx) => {
    if (skipReason) {
      console.log(`[schema-dump] skipped: ${skipReason}`);
      return ctx.skip(skipReason);
    }
    const generated = await migratedSchema(db!.url, pgDump!);
    if (checkedIn === null) throw new Error(`${FILE} is missing: run npm run db:schema`);
    if (generated !== checkedIn) throw new Error(`${FILE} is stale: run npm run db:schema\n${firstDifference(checkedIn, generated)}`);
  });

  it("keeps every pg_dump entry exactly once, with its statements unchanged", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    // migratedSchema() migrates first (nothing left to apply when the test above ran), then dumps.
    const kept = parseDump(await migratedSchema(db!.url, pgDump!));
    const raw = parseDump(await pgDumpSchema(db!.url, pgDump!));
    const key = (e: { type: string; schema: string; name: string }) => `${e.type} ${e.schema}.${e.name}`;
    expect(kept.map(key).sort()).toEqual(raw.map(key).sort());
    expect(kept.length).toBeGreaterThan(100);
    const statements = new Map(raw.map((e) => [key(e), e.body]));
    // The regrouped file adds section headings between entries: they end up after an entry's statements.
    for (const e of kept) expect(e.body.startsWith(statements.get(key(e))!), key(e)).toBe(true);
  });
});

function firstDifference(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const line = a.findIndex((l, i) => l !== b[i]);
  const at = line === -1 ? a.length : line;
  return [
    `first difference at line ${at + 1}:`,
    `  ${`${FILE}:`.padEnd(22)}${a[at] ?? "(end of file)"}`,
    `  ${"migrations give:".padEnd(22)}${b[at] ?? "(end of file)"}`,
  ].join("\n");
}
