import postgres from "postgres";
import { workerClientOptions } from "../../app/db/postgres-options";
import { clockStatement } from "../../app/db/session-check.server";

/**
 * The floor under a page's Worker CPU in `npm run bench` (decision 023, addendum 3): what the runtime itself costs
 * for a request, without the app.
 * - GET /none answers at once: a Worker invocation and nothing else.
 * - GET /connection does only the database work every signed-in page view does at least, the way the app does it
 *   (app/db/player-transaction.server.ts): a postgres.js client with the app's options over the local Hyperdrive,
 *   one message with BEGIN, the clock and one read, then COMMIT. No rows to speak of, no Remix, no React.
 */
interface Env {
  HYPERDRIVE: Hyperdrive;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/none") return new Response("ok");
    if (pathname === "/connection") {
      const sql = postgres(env.HYPERDRIVE.connectionString, workerClientOptions({ idleTimeoutSeconds: 5 }));
      try {
        // the opening of the app's request transaction (app/db/player-transaction.server.ts): BEGIN, then the clock
        const [, , [row]] = (await sql
          .unsafe(`begin; ${clockStatement(new Date().toISOString())}; select 1 as one`)
          .execute()) as unknown as [unknown, unknown, { one: number }[]];
        await sql.unsafe("commit").execute();
        return new Response(row?.one === 1 ? "ok" : "unexpected answer", { status: row?.one === 1 ? 200 : 500 });
      } catch (error) {
        // the bench prints it
        return new Response(`database: ${(error as Error)?.message ?? error}`, { status: 503 });
      }
    }
    return new Response("Not found.", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
