import postgres from "postgres";
import { notSaved, toAnswer } from "./errors.server";
import { createPlayerTransaction } from "./player-transaction.server";
import { workerClientOptions } from "./postgres-options";
import { counting } from "./statement-counter.server";
import type { Db, ServiceSql, ServiceTx } from "./types";

/**
 * The request's database (one per request: a module-level client breaks on Workers, whose sockets may not
 * outlive a request; through Hyperdrive the pooling happens outside the Worker).
 *
 * Two paths, each on a single-connection client of its own:
 * - the player path (player-transaction.server.ts): the request's one transaction, opened by the session check,
 *   under row-level security as the signed-in player;
 * - the server path: short postgres.js transactions with parameters, as the table owner, for the modules that
 *   check the caller themselves (accounts, sessions, mail).
 */
export function createDb(connectionString: string, now: Date, opts: { serializeStatements?: boolean } = {}): Db {
  const counter = { statements: 0 };
  const iso = now.toISOString();
  const player = createPlayerTransaction(connectionString, iso, counter);
  // Made on first use: most requests (every page view) never take the server path, and making a client parses
  // the connection string and options (about 2% of a page's Worker CPU in `npm run profile:page`).
  let serverClient: postgres.Sql | undefined;
  const server = () => (serverClient ??= postgres(connectionString, workerClientOptions({ idleTimeoutSeconds: 5 })));

  /** A server-path transaction: `setup` first (the clock), then the caller's statements; COMMIT awaited. */
  async function transaction<T>(
    setup: (tx: ServiceTx) => postgres.PendingQuery<postgres.Row[]>,
    fn: (tx: ServiceTx) => Promise<T>,
  ): Promise<T> {
    // Set once the callback's work is done: an error after that came from the COMMIT itself.
    let worked = false;
    try {
      counter.statements += 2; // BEGIN and COMMIT
      return (await server().begin(async (rawTx) => {
        const tx = counting(rawTx, counter);
        const ready = setup(tx).execute();
        const result = fn(tx);
        await ready;
        const value = await result;
        worked = true;
        return value;
      })) as T;
    } catch (error) {
      throw worked ? notSaved(error) : toAnswer(error);
    }
  }

  return {
    now,
    authenticate: (sessionHash) => player.authenticate(sessionHash),
    asUser: (userId, fn) => player.asUser(userId, fn),
    serviceTransaction(fn) {
      return transaction((tx) => tx`select set_config('app.now', ${iso}, true)`, fn);
    },
    async serviceStatement(fn) {
      // The embedded database (PGlite behind pglite-socket) runs every connection in one session, so
      // statements from concurrent connections may interleave unless each sits in a transaction.
      if (opts.serializeStatements)
        return transaction(
          (tx) => tx`select 1`,
          (tx) => fn(tx as unknown as ServiceSql),
        );
      try {
        return await fn(counting(server(), counter));
      } catch (error) {
        throw toAnswer(error);
      }
    },
    statementCount: () => counter.statements,
    keepOpenUntil: (done) => player.keepOpenUntil(done),
    commit: () => player.commit(),
    commitWithQueued: () => player.commitWithQueued(),
    finish: () => player.finish(),
  };
}
