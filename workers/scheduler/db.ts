import postgres from "postgres";
import { workerClientOptions } from "../../app/db/postgres-options";
import type { SchedulerEnv } from "./env";

export type Sql = postgres.Sql;

/**
 * One client per invocation (a module-level client breaks on Workers: sockets may not outlive a request);
 * pooling happens in Hyperdrive. Never `end()`ed and no idle timeout: closing a socket from our side
 * raises "Stream was cancelled" in postgres.js's Workers build; the runtime closes it when the invocation ends.
 */
export function connect(env: SchedulerEnv): Sql {
  return postgres(env.HYPERDRIVE.connectionString, workerClientOptions({ connectTimeoutSeconds: 10 }));
}

/** A transaction on the scheduler's service path, with the application clock at `now` (SQL rules read app_now()). */
export function atTime<T>(sql: Sql, now: Date, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`select set_config('app.now', ${now.toISOString()}, true)`;
    return fn(tx);
  }) as Promise<T>;
}
