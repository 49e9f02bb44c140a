/**
 * app/db/row-types.generated.ts is what `npm run db:types` writes from the database the migrations build: a view
 * or a function in public that changed without regenerating the types fails here.
 *
 * Runs on a PostgreSQL server; on PGlite it skips and prints why (the checked-in file is generated on PostgreSQL).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generateRowTypes, ROW_TYPES_FILE } from "../../scripts/db/row-types";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>> | undefined;
let skipReason: string | null = null;

beforeAll(async () => {
  if (inject("dbKind") !== "postgres") {
    skipReason = `the test database is ${inject("dbKind")}, and the row types are generated from a PostgreSQL server's catalog`;
    return;
  }
  db = await useTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe("app/db/row-types.generated.ts", () => {
  it("is what npm run db:types writes now", async (ctx) => {
    if (skipReason) {
      console.log(`[row-types] skipped: ${skipReason}`);
      return ctx.skip(skipReason);
    }
    const generated = await generateRowTypes(db!.sql);
    // Guard against a vacuous pass: the views and functions the models read are there.
    expect(generated).toContain("export type UserCompetitionStatsViewRow = {");
    expect(generated).toContain("export type KnockoutLeaderboardPageRow = {");
    expect(readFileSync(ROW_TYPES_FILE, "utf8"), "app/db/row-types.generated.ts is stale: run npm run db:types").toBe(generated);
  });
});
