import postgres from "postgres";
import type { SessionUser } from "./context";
import { BadSqlValue, SqlFragment, SqlIdentifier, render, renderNumbered } from "./lib/sql-inline";

export type Sql = postgres.Sql;
/** The server path's transaction (postgres.js, extended protocol, parameters). */
export type ServiceTx = postgres.TransactionSql;

/** A statement of the player path: awaiting it runs it; embedding it in another statement adds its text. */
export class InlineQuery<T> extends SqlFragment implements PromiseLike<T> {
  private promise: Promise<T> | undefined;
  constructor(
    text: string,
    private readonly exec: (text: string) => Promise<T>,
  ) {
    super(text);
  }
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.promise ??= this.exec(this.text);
    return this.promise.then(onfulfilled, onrejected);
  }
}

type Rows<T> = T & { count: number };

/**
 * The player path's statement builder, shaped like postgres.js's tag: values are written in as literals
 * (app/lib/sql-inline.ts) so statements pipeline (decision 012).
 */
export interface Tx {
  <T extends readonly object[] = postgres.Row[]>(strings: TemplateStringsArray, ...values: unknown[]): InlineQuery<Rows<T>>;
  (identifier: string): SqlIdentifier;
  unsafe<T extends readonly object[] = postgres.Row[]>(text: string, params?: readonly unknown[]): InlineQuery<Rows<T>>;
}

export interface Db {
  /** The clock every query in this request runs under (SQL rules read it through app_now()). */
  readonly now: Date;
  /**
   * The request's session check: opens the request's transaction with the session token's hash, which a
   * security-definer function validates (and, when valid, makes the transaction's identity). Null when the
   * session is unknown or expired. Asked once per request; later calls get the same answer.
   */
  authenticate(sessionHash: string | null): Promise<SessionUser | null>;
  /**
   * A player's statements, in the request's transaction, under row-level security as `authenticated` with
   * auth.uid() = the session's user. `userId` must be that user (checked); the statements are sent at once
   * and share network round trips with the session check and with each other.
   */
  asUser<T>(userId: string, fn: (tx: Tx) => PromiseLike<T>): Promise<T>;
  /**
   * The server's own path (accounts, sessions, mail, scheduler). It runs as the table owner and so is
   * not limited by RLS: only server modules that check the caller themselves may use it.
   */
  asService<T>(fn: (tx: ServiceTx) => Promise<T>): Promise<T>;
  /**
   * One statement on the server path without a transaction (one round trip), for lookups such as the
   * session check. Pass the request clock explicitly: app_now() is not set here.
   */
  service<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** Number of statements sent to the database so far in this request (for tests and Server-Timing). */
  statementCount(): number;
  /**
   * Ends a write: COMMITs the request's transaction now. An action calls it before its success answer, so the
   * answer says "saved" only when the COMMIT did. Throws a 503 Response (nothing was saved) when the COMMIT
   * fails (a deferred trigger raising, the connection lost). When a statement of the transaction failed, its
   * caller already got that error (and answers the refusal): the transaction is rolled back, without a throw.
   * Later statements of the request (a loader after the action) open a new transaction under the same session.
   */
  commit(): Promise<void>;
  /**
   * Ends the request's transaction (COMMIT, or ROLLBACK when a statement failed) and frees its connection.
   * The Worker awaits it before answering a write and answers 503 if it throws (a COMMIT that failed); after a
   * read it may run once the answer is sent.
   */
  finish(): Promise<void>;
}

/** The answer to a write whose COMMIT failed: nothing was saved, and the player may try again. */
export function notSaved(error: unknown): Response {
  console.error("the write was not saved (its COMMIT failed):", (error as Error)?.message ?? error);
  return new Response("The change could not be saved. Please try again.", { status: 503, statusText: "Service Unavailable" });
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
  return (error instanceof postgres.PostgresError && BAD_INPUT_STATES.has(error.code)) || error instanceof BadSqlValue;
}

function badInput(error: unknown): Response {
  console.warn("input refused by the database:", (error as Error)?.message);
  return new Response("The request could not be read.", { status: 400, statusText: "Bad Request" });
}

export function isUnavailable(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return UNAVAILABLE_STATES.test(error.code);
  const code = (error as { code?: string } | null)?.code ?? "";
  return (
    /^(ECONN|ENOTFOUND|EPIPE|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_|EAI_)/.test(code) ||
    /network|socket|connect|stream was cancelled/i.test(String((error as Error)?.message ?? ""))
  );
}

/**
 * Counts the statements a request sends: each tagged-template or `unsafe` call on the client is one, less
 * the fragments (a tagged template embedded in another one, as the list filters build their WHERE clauses).
 * postgres.js's own `debug` hook would count them too, but it makes every query capture a stack trace.
 */
function counting<T extends Sql | ServiceTx>(client: T, counter: { statements: number }): T {
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

/** The database error turned into what the request answers (503 when unavailable, 400 for bad input). */
function mapped(error: unknown): unknown {
  if (error instanceof Response) return error;
  if (isUnavailable(error)) return unavailable(error);
  if (isBadInput(error)) return badInput(error);
  return error;
}

const SESSION_COLUMNS = `u.id, u.email, u.username, u.role, u.time_zone as "timeZone", u.analytics_consent as "analyticsConsent",
       u.session_id as "sessionId"`;

/**
 * One client per request (a module-level client breaks on Workers: sockets may not outlive a request).
 * Through Hyperdrive the pooling happens outside the Worker.
 *
 * The player path runs in one transaction per request on one reserved connection: BEGIN, the clock, the
 * session check (which sets the identity) and the role go out together, and every player statement of every
 * loader follows on the same connection without waiting for the ones before it. The server path (accounts,
 * sessions, mail) keeps its own short transactions on a second connection.
 */
/** A client with one connection (for Hyperdrive: no type fetching, no named prepared statements). */
const oneConnection = (connectionString: string) =>
  postgres(connectionString, { max: 1, fetch_types: false, prepare: false, connect_timeout: 5, idle_timeout: 5, onnotice: () => {} });

export function createDb(connectionString: string, now: Date, opts: { serializeStatements?: boolean } = {}): Db {
  const counter = { statements: 0 };
  const sql = oneConnection(connectionString);
  const iso = now.toISOString();

  // ---------- the player path: the request's transaction ----------
  // A client of its own with one connection: every statement of the request's transaction goes down the
  // same connection, in the order it was issued. (postgres.js's reserve() never resolves on a fresh
  // connection when fetch_types is off, so it is not used.)
  const player = oneConnection(connectionString);
  type Pending = { text: string; resolve: (rows: unknown) => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let flushing: ReturnType<typeof setTimeout> | undefined;
  let begun = false;
  // The clock and the session check: the first statements of the request's transaction, sent again at the
  // start of a transaction opened after a commit() so it runs under the same clock and identity.
  const opening: string[] = [];
  let reopened = false;
  const inFlight: Promise<unknown>[] = [];
  let session: Promise<SessionUser | null> | undefined;
  let failed = false;
  let finished = false;

  const isRead = (text: string) => /^\s*(select|with)\b/i.test(text);

  /** Statements of one tick go out together; reads share one simple-query message (one round trip). */
  function flush() {
    flushing = undefined;
    const items = queue;
    queue = [];
    let group: Pending[] = [];
    const sendGroup = () => {
      if (group.length === 0) return;
      const members = group;
      group = [];
      // The first message opens the transaction: BEGIN has no result set of its own, so every member's
      // result set follows it in order.
      const prefix = begun ? "" : "begin;\n" + (reopened ? opening.map((t) => `${t};\n`).join("") : "");
      begun = true;
      const text = prefix + members.map((m) => m.text).join(";\n");
      const done = player
        .unsafe(text)
        .execute()
        .then((result: unknown) => {
          const sets = result as unknown[];
          const list = members.length === 1 && !prefix ? [sets] : (sets as unknown[][]).slice(prefix ? sets.length - members.length : 0);
          if (list.length !== members.length) throw new Error("Result sets do not match the statements sent.");
          members.forEach((m, i) => m.resolve(list[i]));
        })
        .catch((error: unknown) => {
          failed = true;
          for (const m of members) m.reject(error);
        });
      inFlight.push(done);
    };
    for (const item of items) {
      if (isRead(item.text)) {
        group.push(item);
        continue;
      }
      sendGroup();
      group.push(item);
      sendGroup();
    }
    sendGroup();
  }

  function send<T>(text: string): Promise<T> {
    if (finished) return Promise.reject(new Error("The request's transaction has ended."));
    counter.statements++;
    return new Promise<T>((resolve, reject) => {
      queue.push({ text, resolve: resolve as (rows: unknown) => void, reject });
      flushing ??= setTimeout(flush, 0);
    }).catch((error: unknown) => {
      throw mapped(error);
    });
  }

  function authenticate(sessionHash: string | null): Promise<SessionUser | null> {
    session ??= (async () => {
      // Its failure (the database is down) is the session check's failure, reported there.
      const clock = render(["select set_config('app.now', ", ", true)"], [iso]);
      opening.push(clock);
      send(clock).catch(() => {});
      // Always exactly one row (the left join), so the role is always set. It is 'authenticated' even for an
      // unknown session, with no identity (auth.uid() is null, so row-level security shows nothing personal):
      // a loader's reads may travel in the same message as this check, and a permission error there would fail
      // the whole message, the check included. Those reads are dropped unless the session is confirmed.
      const check = render(
        [
          `select ${SESSION_COLUMNS},
       set_config('role', 'authenticated', true) as "_role"
  from (select 1) one left join private.authenticate(`,
          ") u on true",
        ],
        [sessionHash ?? ""],
      );
      opening.push(check);
      const rows = await send<(SessionUser & { role: SessionUser["role"] | null })[]>(check);
      const row = rows[0];
      if (!row?.id) return null;
      const { id, email, username, role, timeZone, analyticsConsent, sessionId } = row;
      return { id, email, username, role: role ?? "player", timeZone, analyticsConsent, sessionId };
    })();
    return session;
  }

  /**
   * Sends what is queued, waits for it, then COMMITs (true) or, when a statement failed, rolls back (false).
   * Throws when the COMMIT or ROLLBACK itself fails. A later statement opens a new transaction.
   */
  async function endTransaction(): Promise<boolean> {
    if (flushing) {
      clearTimeout(flushing);
      flush();
    }
    await Promise.all(inFlight);
    inFlight.length = 0;
    if (!begun) return true;
    begun = false;
    reopened = true;
    const ok = !failed;
    failed = false;
    counter.statements++;
    // COMMIT of a transaction that had an error only rolls back, without an error: so say ROLLBACK and report it.
    await player.unsafe(ok ? "commit" : "rollback").execute();
    return ok;
  }

  const tx = Object.assign(
    (first: TemplateStringsArray | string, ...values: unknown[]) =>
      typeof first === "string" ? new SqlIdentifier(first) : new InlineQuery(render(first, values), send),
    { unsafe: (text: string, params: readonly unknown[] = []) => new InlineQuery(renderNumbered(text, params), send) },
  ) as unknown as Tx;

  // ---------- the server path ----------
  async function run<T>(setup: (tx: ServiceTx) => postgres.PendingQuery<postgres.Row[]>, fn: (tx: ServiceTx) => Promise<T>): Promise<T> {
    // Set once the callback's work is done: an error after that came from the COMMIT itself.
    let worked = false;
    try {
      counter.statements += 2; // BEGIN and COMMIT
      return (await sql.begin(async (rawTx) => {
        const stx = counting(rawTx, counter);
        const ready = setup(stx).execute();
        const result = fn(stx);
        await ready;
        const value = await result;
        worked = true;
        return value;
      })) as T;
    } catch (error) {
      throw worked ? notSaved(error) : mapped(error);
    }
  }

  return {
    now,
    authenticate,
    async asUser(userId, fn) {
      if (!session) throw new Error("asUser before the session check: call context.user() first.");
      // The statements go out now, next to the session check; the result counts only if the session
      // is this user's (else the caller's login redirect, and nothing read is used).
      const result = new Promise<unknown>((resolve) => resolve(fn(tx)));
      const [user, value] = await Promise.allSettled([session, result]);
      if (user.status === "rejected") throw user.reason;
      if (user.value?.id !== userId) {
        // What was sent with an unconfirmed session is never kept (it ran with no identity, so RLS and the
        // functions refused it anyway): the transaction ends in ROLLBACK.
        failed = true;
        throw new Error("asUser for a user other than the session's.");
      }
      if (value.status === "rejected") throw mapped(value.reason);
      return value.value as never;
    },
    asService(fn) {
      return run((stx) => stx`select set_config('app.now', ${iso}, true)`, fn);
    },
    async service(fn) {
      // The embedded database (PGlite behind pglite-socket) runs every connection in one session, so
      // statements from concurrent connections may interleave unless each sits in a transaction.
      if (opts.serializeStatements)
        return run(
          (stx) => stx`select 1`,
          (stx) => fn(stx as unknown as Sql),
        );
      try {
        return await fn(counting(sql, counter));
      } catch (error) {
        throw mapped(error);
      }
    },
    statementCount: () => counter.statements,
    async commit() {
      try {
        // A statement that failed was rolled back with the rest (endTransaction answers false): its caller
        // already holds that error and answers the refusal, so only a failed COMMIT throws here.
        await endTransaction();
      } catch (error) {
        throw notSaved(error);
      }
    },
    async finish() {
      if (finished) return;
      try {
        // A failed statement was already answered by the caller that saw it: only a failed COMMIT throws here.
        await endTransaction();
      } finally {
        finished = true;
      }
    },
  };
}
