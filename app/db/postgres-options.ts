import type postgres from "postgres";
import { openWorkerSocket } from "./worker-socket";

/**
 * The one set of postgres.js options for a Worker's client (the web Worker's request clients and the
 * scheduler's), over Hyperdrive or a local database:
 * - one connection per client: a client is made per request or invocation (a module-level client breaks on
 *   Workers, whose sockets may not outlive a request) and Hyperdrive pools the server connections;
 * - no type fetching and no named prepared statements: Hyperdrive (transaction pooling) cannot keep them,
 *   and `fetch_types` would cost a round trip on every new connection;
 * - notices are not logged.
 */
export function workerClientOptions(
  overrides: { connectTimeoutSeconds?: number; idleTimeoutSeconds?: number } = {},
): postgres.Options<Record<string, postgres.PostgresType>> {
  return {
    max: 1,
    fetch_types: false,
    prepare: false,
    connect_timeout: overrides.connectTimeoutSeconds ?? 5,
    ...(overrides.idleTimeoutSeconds === undefined ? {} : { idle_timeout: overrides.idleTimeoutSeconds }),
    onnotice: () => {},
    // In the Workers runtime: our socket, which reads without copying each chunk (app/db/worker-socket.ts).
    // Elsewhere (Node: tests, scripts) postgres.js's own.
    // (postgres.js reads `socket` but its types do not declare it)
    ...(inWorkersRuntime() ? ({ socket: openWorkerSocket } as object) : {}),
  };
}

function inWorkersRuntime(): boolean {
  return typeof navigator !== "undefined" && navigator.userAgent === "Cloudflare-Workers";
}
