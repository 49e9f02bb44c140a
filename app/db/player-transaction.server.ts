import postgres from "postgres";
import { SqlFragment, SqlIdentifier, render, renderNumbered } from "../lib/sql-inline";
import { notSaved, toAnswer } from "./errors.server";
import { workerClientOptions } from "./postgres-options";
import { clockStatement, sessionCheckStatement, sessionUserFrom } from "./session-check.server";
import type { StatementCounter } from "./statement-counter.server";
import type { PlayerSql, SessionUser } from "./types";

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

/**
 * The player path (decision 012): one transaction per request on a postgres.js client of its own with one
 * connection, so every statement goes down the same connection in the order it was issued. (postgres.js's
 * reserve() never resolves on a fresh connection when fetch_types is off, so it is not used.)
 *
 * Statements carry their values as literals, so none waits for a parameter description: statements issued in
 * one tick go out at once, reads sharing one simple-query message, and the first message also carries BEGIN,
 * the clock and the session check. A write's COMMIT is sent by commit() (the action) or finish() (the Worker).
 */
export function createPlayerTransaction(connectionString: string, nowIso: string, counter: StatementCounter) {
  const connection = postgres(connectionString, workerClientOptions({ idleTimeoutSeconds: 5 }));
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
  let finishing: Promise<void> | undefined;
  // Answers whose body still reads in this transaction (a streamed CSV): finish() waits for them (keepOpenUntil).
  const holds: Promise<unknown>[] = [];
  // commitWithQueued(): the statements queued now go out with COMMIT at the end of their message.
  let commitInMessage = false;
  // A message that ended in COMMIT failed: its transaction may still be open and aborted (the statements after
  // the error, COMMIT included, were skipped), so the next message or endTransaction rolls it back first.
  let mustRollback = false;

  const isRead = (text: string) => /^\s*(select|with)\b/i.test(text);

  /** Statements of one tick go out together; reads share one simple-query message (one round trip). */
  function flush() {
    flushing = undefined;
    const items = queue;
    queue = [];
    const withCommit = commitInMessage;
    commitInMessage = false;
    const groups: Pending[][] = [];
    let group: Pending[] = [];
    const close = () => {
      if (group.length) groups.push(group);
      group = [];
    };
    for (const item of items) {
      if (isRead(item.text)) {
        group.push(item);
        continue;
      }
      close();
      group.push(item);
      close();
    }
    close();
    groups.forEach((members, i) => sendGroup(members, withCommit && i === groups.length - 1));
  }

  function sendGroup(members: Pending[], withCommit: boolean) {
    // The first message opens the transaction: BEGIN has no result set of its own, so every member's result set
    // follows it (and the replayed opening statements') in order; a trailing COMMIT's comes last.
    const prefixStatements = [...(mustRollback ? ["rollback"] : []), ...(begun ? [] : ["begin", ...(reopened ? opening : [])])];
    const prefix = prefixStatements.map((t) => `${t};\n`).join("");
    mustRollback = false;
    begun = true;
    const suffix = withCommit ? ";\ncommit" : "";
    if (withCommit) {
      // The transaction ends with this message: whatever is sent after it opens a new one (in order on the
      // connection, so it must know now, not when the answer arrives).
      counter.statements++;
      begun = false;
      reopened = true;
    }
    const text = prefix + members.map((m) => m.text).join(";\n") + suffix;
    const done = connection
      .unsafe(text)
      .execute()
      .then((result: unknown) => {
        const sets = result as unknown[];
        // One result set per statement of the prefix, then the members' (postgres.js leaves out a trailing COMMIT's).
        // A lone statement's rows come flat (with a trailing COMMIT too, whose result is left out).
        const single = members.length === 1 && !prefix && (!suffix || !Array.isArray(sets[0]));
        const list = single ? [sets] : (sets as unknown[][]).slice(prefixStatements.length, prefixStatements.length + members.length);
        if (list.length !== members.length) throw new Error("Result sets do not match the statements sent.");
        members.forEach((m, i) => m.resolve(list[i]));
      })
      .catch((error: unknown) => {
        failed = true;
        if (withCommit) mustRollback = true;
        for (const m of members) m.reject(error);
      });
    inFlight.push(done);
  }

  function send<T>(text: string): Promise<T> {
    if (finished) return Promise.reject(new Error("The request's transaction has ended."));
    counter.statements++;
    return new Promise<T>((resolve, reject) => {
      queue.push({ text, resolve: resolve as (rows: unknown) => void, reject });
      flushing ??= setTimeout(flush, 0);
    }).catch((error: unknown) => {
      throw toAnswer(error);
    });
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
    if (mustRollback) {
      // A message that ended in COMMIT failed, so nothing of it was saved (its caller has the error): end whatever
      // is left of its transaction. Its ROLLBACK failing too (the connection is gone) changes nothing: no throw.
      mustRollback = false;
      failed = false;
      counter.statements++;
      await connection
        .unsafe("rollback")
        .execute()
        .catch(() => {});
      return false;
    }
    if (!begun) {
      failed = false;
      return true;
    }
    begun = false;
    reopened = true;
    const ok = !failed;
    failed = false;
    counter.statements++;
    // COMMIT of a transaction that had an error only rolls back, without an error: so say ROLLBACK.
    await connection.unsafe(ok ? "commit" : "rollback").execute();
    return ok;
  }

  const sql = Object.assign(
    (first: TemplateStringsArray | string, ...values: unknown[]) =>
      typeof first === "string" ? new SqlIdentifier(first) : new InlineQuery(render(first, values), send),
    { unsafe: (text: string, params: readonly unknown[] = []) => new InlineQuery(renderNumbered(text, params), send) },
  ) as unknown as PlayerSql;

  return {
    authenticate(sessionHash: string | null): Promise<SessionUser | null> {
      session ??= (async () => {
        const clock = clockStatement(nowIso);
        const check = sessionCheckStatement(sessionHash);
        opening.push(clock, check);
        // The clock's failure (the database is down) is the session check's failure, reported there.
        send(clock).catch(() => {});
        return sessionUserFrom(await send<Parameters<typeof sessionUserFrom>[0]>(check));
      })();
      return session;
    },

    async asUser<T>(userId: string, fn: (sql: PlayerSql) => PromiseLike<T>): Promise<T> {
      if (!session) throw new Error("asUser before the session check: call context.user() first.");
      // The statements go out now, next to the session check; the result counts only if the session
      // is this user's (else the caller's login redirect, and nothing read is used).
      const result = new Promise<unknown>((resolve) => resolve(fn(sql)));
      const [user, value] = await Promise.allSettled([session, result]);
      if (user.status === "rejected") throw user.reason;
      if (user.value?.id !== userId) {
        // What was sent with an unconfirmed session is never kept (it ran with no identity, so RLS and the
        // functions refused it anyway): the transaction ends in ROLLBACK.
        failed = true;
        throw new Error("asUser for a user other than the session's.");
      }
      if (value.status === "rejected") throw toAnswer(value.reason);
      return value.value as T;
    },

    /**
     * COMMIT travels at the end of the message of the statements queued in this tick (call it right after issuing
     * the write, before awaiting it): the write's result resolves only once its COMMIT succeeded, and the locks it
     * took are held for the database's own time instead of a round trip to the Worker and back. Only for a write
     * that is harmless without a confirmed session (it then ran with no identity and wrote nothing).
     */
    commitWithQueued(): void {
      commitInMessage = true;
    },

    keepOpenUntil(done: Promise<unknown>): void {
      holds.push(done);
    },

    async commit(): Promise<void> {
      try {
        // A statement that failed was rolled back with the rest (endTransaction answers false): its caller
        // already holds that error and answers the refusal, so only a failed COMMIT throws here.
        await endTransaction();
      } catch (error) {
        throw notSaved(error);
      }
    },

    /**
     * Ends the request's transaction once. Every call gets the same promise, settled by the one COMMIT: a read calls
     * this before its render (entry.server.tsx) and the Worker again in waitUntil, and the Worker's call must hold
     * the request open until that COMMIT's answer is in. (A second call used to find the transaction already
     * ending and resolve at once: the request ended, its socket closed with the COMMIT unanswered, and the pooler
     * threw away the server connection, so the next request waited for a new one.)
     */
    finish(): Promise<void> {
      // A failed statement was already answered by the caller that saw it: only a failed COMMIT throws here.
      finishing ??= (async () => {
        try {
          await Promise.allSettled(holds);
          await endTransaction();
        } finally {
          finished = true;
        }
      })();
      return finishing;
    },
  };
}
