/**
 * Tests that need a real PostgreSQL server. The database tests fall back to PGlite where PostgreSQL is not
 * installed (tests/support/pg.ts); PGlite's socket server multiplexes every client connection onto its one
 * session message by message, so concurrent clients interleave their extended-protocol messages and the
 * concurrency tests cannot mean anything there. On PGlite such a test is skipped, and the run says why: in
 * the skipped test's name and in a line on the output (vitest heads it with the file's name).
 */
import { inject, it, type TestFunction } from "vitest";

export const PGLITE_SKIP_REASON =
  "PGlite serves every connection on one session, so concurrent clients interleave; this needs a real PostgreSQL server";

/** `it(name, fn)` on PostgreSQL; on PGlite a skipped test whose name and log line give the reason. */
export function itOnRealPostgres(name: string, fn: TestFunction, timeout?: number): void {
  if (inject("dbKind") !== "pglite") {
    it(name, fn, timeout);
    return;
  }
  console.log(`skipped on PGlite: "${name}": ${PGLITE_SKIP_REASON}`);
  it.skip(`${name} [skipped: ${PGLITE_SKIP_REASON}]`, fn);
}
