/**
 * Vitest global setup of the "db" project: starts one database server for the run (see tests/support/pg.ts),
 * builds the migrated template once, and hands the admin URL to the test files through provide/inject.
 */
import type { TestProject } from "vitest/node";
import { prepareTemplate, startPostgres, type DbKind } from "./pg";

declare module "vitest" {
  export interface ProvidedContext {
    dbAdminUrl: string;
    dbKind: DbKind;
    /** PGlite only: tarball of the migrated template ("" otherwise). */
    dbTemplateDump: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const server = await startPostgres();
  let template;
  try {
    template = await prepareTemplate(server);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const where = process.env.TEST_DATABASE_URL && process.env.TEST_DB !== "pglite" ? " (TEST_DATABASE_URL)" : "";
  console.log(`[db] ${server.kind}${where} ready with migrated template in ${Date.now() - started} ms`);
  project.provide("dbAdminUrl", server.url);
  project.provide("dbKind", server.kind);
  project.provide("dbTemplateDump", template.templateDump ?? "");
  return async () => {
    await template.cleanup();
    await server.stop();
  };
}
