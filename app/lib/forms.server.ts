import { data } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Db } from "~/db/types";
import { fieldErrors } from "./validation";

/**
 * The one way an action reads and answers a form post.
 *
 *   const form = await readForm(request);            // 400 for a body that is not a form (never a 500)
 *   switch (intentOf(form)) { case "x": return x(form); default: return unknownIntent(); }
 *   const parsed = parseForm(form, Schema);           // zod over the form's string fields
 *   if (!parsed.ok) return invalid(parsed.errors);     // 400 { errors: { field: message }, message }
 */

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data\s*;.*\bboundary=)/i;

/** A 400 the action throws; the error boundary shows it as "the request could not be read". */
function badRequest(message = "The request could not be read."): Response {
  return new Response(message, { status: 400, statusText: "Bad Request", headers: { "Content-Type": "text/plain" } });
}

/**
 * The request's form fields. A JSON body, a multipart body without a boundary or a truncated body is the
 * client's mistake: it answers 400 here, once, instead of a 500 from deep inside an action.
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!FORM_TYPES.test(request.headers.get("Content-Type") ?? "")) throw badRequest();
  try {
    return await request.formData();
  } catch {
    throw badRequest();
  }
}

/** The form's `intent` field ("" when absent), which picks the function that handles a multi-intent action. */
export function intentOf(form: FormData): string {
  const v = form.get("intent");
  return typeof v === "string" ? v : "";
}

/** An action's answer to an intent it does not know. */
export function unknownIntent() {
  const errors: Record<string, string> = {};
  return data({ intent: "unknown" as const, errors, message: "Unknown action." }, { status: 400 });
}

/** The form's text fields as an object for zod (files are left to the action that expects them). */
export function formFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

type Parsed<T> = { ok: true; data: T } | { ok: false; errors: Record<string, string>; message: string };

/** Parses the form with a zod schema; on failure the first message per field, and the first overall. */
export function parseForm<S extends z.ZodType>(form: FormData, schema: S): Parsed<z.output<S>> {
  const result = schema.safeParse(formFields(form));
  if (result.success) return { ok: true, data: result.data };
  const errors = fieldErrors(result.error);
  return { ok: false, errors, message: result.error.issues[0]?.message ?? "Please check the form." };
}

/**
 * The one shape of a refused form: field errors and a message, status 400 unless said otherwise. `echo` is
 * what the page needs to show the refusal in place, without JavaScript too (the intent, the row it concerns,
 * the submitted values); it never overrides `errors` or `message`.
 */
export function invalid<E extends Record<string, unknown> = Record<never, never>>(
  errors: Record<string, string>,
  message: string | null = null,
  status = 400,
  echo?: E,
) {
  return data({ ...(echo as E), errors, message }, { status });
}

/**
 * Ends the action's write: COMMITs it now. Null when saved; otherwise the form's answer with its failure text
 * and status 503 (nothing was saved, the player may try again), so a success answer can only follow a COMMIT.
 *
 *   const failed = await commitOrRefuse(context.db, "Failed to save team selection.");
 *   if (failed) return failed;
 */
export async function commitOrRefuse<E extends Record<string, unknown> = Record<never, never>>(db: Db, message: string, echo?: E) {
  try {
    await db.commit();
    return null;
  } catch (error) {
    if (!(error instanceof Response) || error.status !== 503) throw error;
    return invalid({}, message, 503, echo);
  }
}

/**
 * Ends a write the database refused with the rule's message (a P0001 such as "A reason is required to correct a
 * result."): its failed statement aborted the request's transaction, so this only rolls it back (nothing was
 * written) and the page's loaders then read in a fresh transaction. The action answers the refusal (4xx), not the
 * 503 that commit() gives when a write that should have been saved was not.
 */
export async function endRefusedWrite(db: Db): Promise<void> {
  await db.commit().catch(() => {});
}
