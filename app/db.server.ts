import postgres from "postgres";

type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export interface Db {
  /** The clock every query in this request runs under (SQL rules read it through app_now()). */
  readonly now: Date;
  /** A player's request: row-level security applies as `authenticated` with auth.uid() = userId. */
  asUser<T>(userId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * The server's own path (accounts, sessions, mail, scheduler). It runs as the table owner and so is
   * not limited by RLS: only server modules that check the caller themselves may use it.
   */
  asService<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One statement on the server path without a transaction (one round trip), for lookups such as the
   * session check. Pass the request clock explicitly: app_now() is not set here.
   */
  service<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** Number of statements sent to the database so far in this request (for tests and Server-Timing). */
  statementCount(): number;
}

/**
 * What callers see when the database is down: a 503 Response, which Remix renders through the
 * ErrorBoundary as "temporarily unavailable" (never a stack trace) for loaders and actions alike.
 */
function unavailable(error: unknown): Response {
  console.error("database unavailable:", (error as Error)?.message ?? error);
  return new Response("The service is temporarily unavailable.", { status: 503, statusText: "Service Unavailable" });
}

// SQLSTATE classes that mean the server is unavailable rather than the query being wrong.
const UNAVAILABLE_STATES = /^(08|53|57P)/;

/**
 * Data exceptions that mean the database could not take a value the request sent: a NUL byte or other
 * untranslatable character in a text parameter (22021, 22P05), a number or string too large (22003,
 * 22001), an impossible date (22007, 22008), a malformed value for a cast (22P02) or LIKE escape (22025).
 * That is the client's input, so a 400, never a 500. Other data exceptions (division by zero) stay bugs.
 */
const BAD_INPUT_STATES = new Set(["22001", "22003", "22007", "22008", "22021", "22025", "22P02", "22P05"]);

function isBadInput(error: unknown): boolean {
  return error instanceof postgres.PostgresError && BAD_INPUT_STATES.has(error.code);
}

function badInput(error: unknown): Response {
  console.warn("input refused by the database:", (error as Error)?.message);
  return new Response("The request could not be read.", { status: 400, statusText: "Bad Request" });
}

function isUnavailable(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return UNAVAILABLE_STATES.test(error.code);
  const code = (error as { code?: string } | null)?.code ?? "";
  return /^(ECONN|ENOTFOUND|EPIPE|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_|EAI_)/.test(code) ||
    /network|socket|connect|stream was cancelled/i.test(String((error as Error)?.message ?? ""));
}

/**
 * Counts the statements a request sends: each tagged-template or `unsafe` call on the client is one, less
 * the fragments (a tagged template embedded in another one, as the list filters build their WHERE clauses).
 * postgres.js's own `debug` hook would count them too, but it makes every query capture a stack trace.
 */
function counting<T extends Sql | Tx>(client: T, counter: { statements: number }): T {
  const made = new WeakSet<object>();
  return new Proxy(client, {
    apply(target, thisArg, args: unknown[]) {
      const query = Reflect.apply(target as (...a: unknown[]) => unknown, thisArg, args);
      if (Array.isArray(args[0]) && "raw" in args[0]) {
        counter.statements++;
        for (const arg of args) if (typeof arg === "object" && arg !== null && made.has(arg)) counter.statements--;
        if (typeof query === "object" && query !== null) made.add(query);
      }
      return query;
    },
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "unsafe") return value;
      return (...args: unknown[]) => {
        counter.statements++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * One client per request (a module-level client breaks on Workers: sockets may not outlive a request).
 * Through Hyperdrive the pooling happens outside the Worker.
 */
export function createDb(connectionString: string, now: Date, opts: { serializeStatements?: boolean } = {}): Db {
  const counter = { statements: 0 };
  const sql = postgres(connectionString, {
    max: 1,
    fetch_types: false,
    prepare: false,
    connect_timeout: 5,
    idle_timeout: 5,
    onnotice: () => {},
  });

  async function run<T>(setup: (tx: Tx) => postgres.PendingQuery<postgres.Row[]>, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      counter.statements += 2; // BEGIN and COMMIT
      return (await sql.begin(async (rawTx) => {
        const tx = counting(rawTx, counter);
        // postgres.js sends a query only once it is awaited or executed: execute() puts the identity
        // statement on the wire first, pipelined ahead of the caller's queries on the same connection.
        const ready = setup(tx).execute();
        const result = fn(tx);
        await ready;
        return result;
      })) as T;
    } catch (error) {
      if (isUnavailable(error)) throw unavailable(error);
      if (isBadInput(error)) throw badInput(error);
      throw error;
    }
  }

  const iso = now.toISOString();
  return {
    now,
    asUser(userId, fn) {
      const claims = JSON.stringify({ sub: userId, role: "authenticated" });
      return run(
        (tx) => tx`select set_config('request.jwt.claims', ${claims}, true), set_config('app.now', ${iso}, true), set_config('role', 'authenticated', true)`,
        fn,
      );
    },
    asService(fn) {
      return run((tx) => tx`select set_config('app.now', ${iso}, true)`, fn);
    },
    async service(fn) {
      // The embedded database (PGlite behind pglite-socket) runs every connection in one session, so
      // statements from concurrent connections may interleave unless each sits in a transaction.
      if (opts.serializeStatements) return run((tx) => tx`select 1`, (tx) => fn(tx as unknown as Sql));
      try {
        return await fn(counting(sql, counter));
      } catch (error) {
        if (isUnavailable(error)) throw unavailable(error);
        if (isBadInput(error)) throw badInput(error);
        throw error;
      }
    },
    statementCount: () => counter.statements,
  };
}
