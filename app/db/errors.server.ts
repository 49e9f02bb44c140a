import postgres from "postgres";
import { BadSqlValue } from "../lib/sql-inline";

/**
 * What a database error means for the request's answer: the server is unavailable (503), the client sent a value
 * the database cannot take (400), or a write's COMMIT failed (503, nothing saved). Everything else stays an
 * error (a bug: the 500 page, never a stack trace).
 */

// SQLSTATE classes that mean the server is unavailable rather than the query being wrong.
const UNAVAILABLE_STATES = /^(08|53|57P)/;

/**
 * Data exceptions that mean the database could not take a value the request sent: a NUL byte or other
 * untranslatable character in a text parameter (22021, 22P05), a number or string too large (22003,
 * 22001), an impossible date (22007, 22008), a malformed value for a cast (22P02) or LIKE escape (22025).
 * That is the client's input, so a 400, never a 500. Other data exceptions (division by zero) stay bugs.
 */
const BAD_INPUT_STATES = new Set(["22001", "22003", "22007", "22008", "22021", "22025", "22P02", "22P05"]);

export function isUnavailable(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return UNAVAILABLE_STATES.test(error.code);
  const code = (error as { code?: string } | null)?.code ?? "";
  return (
    /^(ECONN|ENOTFOUND|EPIPE|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_|EAI_)/.test(code) ||
    /network|socket|connect|stream was cancelled/i.test(String((error as Error)?.message ?? ""))
  );
}

function isBadInput(error: unknown): boolean {
  return (error instanceof postgres.PostgresError && BAD_INPUT_STATES.has(error.code)) || error instanceof BadSqlValue;
}

/**
 * What callers see when the database is down: a 503 Response, which Remix renders through the
 * ErrorBoundary as "temporarily unavailable" (never a stack trace) for loaders and actions alike.
 */
function unavailable(error: unknown): Response {
  console.error("database unavailable:", (error as Error)?.message ?? error);
  return new Response("The service is temporarily unavailable.", { status: 503, statusText: "Service Unavailable" });
}

function badInput(error: unknown): Response {
  console.warn("input refused by the database:", (error as Error)?.message);
  return new Response("The request could not be read.", { status: 400, statusText: "Bad Request" });
}

/** The answer to a write whose COMMIT failed: nothing was saved, and the player may try again. */
export function notSaved(error: unknown): Response {
  console.error("the write was not saved (its COMMIT failed):", (error as Error)?.message ?? error);
  return new Response("The change could not be saved. Please try again.", { status: 503, statusText: "Service Unavailable" });
}

/** The database error turned into what the request answers (503 when unavailable, 400 for bad input). */
export function toAnswer(error: unknown): unknown {
  if (error instanceof Response) return error;
  if (isUnavailable(error)) return unavailable(error);
  if (isBadInput(error)) return badInput(error);
  return error;
}
