import type postgres from "postgres";
import type { InlineQuery } from "./player-transaction.server";
import type { SqlIdentifier } from "../lib/sql-inline";

/** The signed-in player as the session check returns them (private.authenticate). */
export interface SessionUser {
  id: string;
  email: string;
  username: string | null;
  role: "player" | "admin";
  timeZone: string | null;
  analyticsConsent: boolean | null;
  sessionId: string;
}

/** The server path's transaction (postgres.js, extended protocol, parameters). */
export type ServiceTx = postgres.TransactionSql;
/** The server path's client outside a transaction. */
export type ServiceSql = postgres.Sql;

type Rows<T> = T & { count: number };

/**
 * A player's statement builder, shaped like postgres.js's tag, for the statements of the request's transaction
 * (it is not a transaction of its own): values are written in as literals (app/lib/sql-inline.ts) so
 * statements pipeline (decision 012).
 */
export interface PlayerSql {
  <T extends readonly object[] = postgres.Row[]>(strings: TemplateStringsArray, ...values: unknown[]): InlineQuery<Rows<T>>;
  (identifier: string): SqlIdentifier;
  unsafe<T extends readonly object[] = postgres.Row[]>(text: string, params?: readonly unknown[]): InlineQuery<Rows<T>>;
}

/** A request's database: its clock, the player's transaction and the server's own path. */
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
  asUser<T>(userId: string, fn: (sql: PlayerSql) => PromiseLike<T>): Promise<T>;
  /**
   * A transaction on the server's own path (accounts, sessions, mail). It runs as the table owner and so is
   * not limited by RLS: only server modules that check the caller themselves may use it.
   */
  serviceTransaction<T>(fn: (tx: ServiceTx) => Promise<T>): Promise<T>;
  /**
   * One statement on the server path without a transaction (one round trip), for lookups such as the
   * session check. Pass the request clock explicitly: app_now() is not set here.
   */
  serviceStatement<T>(fn: (sql: ServiceSql) => Promise<T>): Promise<T>;
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
   * Sends COMMIT in the same message as the statements issued in this tick (call right after issuing the write,
   * before awaiting it): one round trip for check, write and COMMIT, and the write's result resolves only after
   * the COMMIT succeeded. For writes that write nothing without a confirmed session (decision 024).
   */
  commitWithQueued(): void;
  /**
   * Keeps the request's transaction open until `done` settles: finish() waits for it before its COMMIT. For an
   * answer whose body is still read from the database after the loader returned (a CSV streamed a page at a time,
   * app/models/exports.server.ts): the Worker calls finish() as soon as the answer starts.
   */
  keepOpenUntil(done: Promise<unknown>): void;
  /**
   * Ends the request's transaction (COMMIT, or ROLLBACK when a statement failed) and frees its connection.
   * The Worker awaits it before answering a write and answers 503 if it throws (a COMMIT that failed); after a
   * read it may run once the answer is sent.
   */
  finish(): Promise<void>;
}

/**
 * A generated row (app/db/row-types.generated.ts, where every view column is nullable) with the columns `K`
 * that the model knows are never null: a NOT NULL table column the view passes through, a CASE with an else.
 * Say so once, in the row type of the query, instead of coercing each value.
 */
export type NotNull<Row, K extends keyof Row> = Omit<Row, K> & { [P in K]: NonNullable<Row[P]> };
