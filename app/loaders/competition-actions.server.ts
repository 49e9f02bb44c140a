import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { commitOrRefuse, endRefusedWrite, formFields, parseForm } from "~/lib/forms.server";
import { formFieldOfMessage } from "~/lib/competition-form-fields";
import { RULE_MESSAGES, rulesSchema } from "~/lib/competition-rules";
import { UUID_PATTERN } from "~/lib/ids";
import { registerMessage, setSelectionMessage, unregisterMessage } from "~/lib/outcome-messages";
import { setPlayerSelection, type SetSelectionCode } from "~/models/competition-detail.server";
import { joinCompetition, unregisterCompetition } from "~/models/competitions.server";
import { RULES_SAVED, updateCompetitionRules } from "~/models/competition-creation.server";
import { requireUser, writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The competition page's form posts (/competition/{id}), one handler per intent; the route only picks the handler.
 * Each writes as the signed-in player in the request's one transaction, COMMITs before its answer says "saved"
 * and answers a refused form in place (its intent, so the page shows the message beside the form that was sent).
 */

/** What each intent works on: the request, its context and the competition (the player comes with the write). */
export interface CompetitionAct {
  request: Request;
  context: AppLoadContext;
  competitionId: string;
}

const RegisterSchema = z.object({ registrationKey: z.string().trim().max(50).optional() });
const SetSelectionSchema = z.object({ userId: z.string().regex(UUID_PATTERN), team: z.string().trim().min(1).max(60) });

/** A refused form (as `invalid` answers one) with its intent, so the page shows the message beside the form that was sent. */
export function refused(intent: string, errors: Record<string, string>, message: string, status = 400, echo: Record<string, unknown> = {}) {
  return data({ ...echo, intent, errors, message }, { status });
}

export async function register({ request, context, competitionId }: CompetitionAct, form: FormData) {
  const parsed = parseForm(form, RegisterSchema);
  if (!parsed.ok) return refused("register", parsed.errors, "Please fill in all required fields.");
  const key = parsed.data.registrationKey || undefined;
  const code = await writeAsUser(request, context, (userId) => joinCompetition(context.db, userId, competitionId, key));
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, `/competition/${competitionId}`, registerMessage(code));
}

export async function unregister({ request, context, competitionId }: CompetitionAct) {
  const code = await writeAsUser(request, context, (userId) => unregisterCompetition(context.db, userId, competitionId));
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, `/competition/${competitionId}`, unregisterMessage(code));
}

export async function setSelection({ request, context, competitionId }: CompetitionAct, form: FormData) {
  const parsed = parseForm(form, SetSelectionSchema);
  if (!parsed.ok) return refused("set-selection", parsed.errors, "Failed to update selection.");
  const { userId: playerId, team } = parsed.data;
  let code: SetSelectionCode | "error";
  try {
    code = await writeAsUser(request, context, (userId) => setPlayerSelection(context.db, userId, competitionId, playerId, team));
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("set_player_selection failed:", (error as Error)?.message ?? error);
    code = "error";
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, `/competition/${competitionId}?tab=manage-selections`, setSelectionMessage(code));
}

const RULE_FIELDS = ["lives", "draws", "missedPick", "everyoneOut", "winPoints", "drawPoints", "lossPoints", "joker"] as const;

/**
 * The creator (or an admin) changes the rules (intent update-rules, the create forms' field names) until the start
 * match day's deadline. update_competition_rules decides who, until when and which values; a refusal comes back to
 * the Rules panel with its message next to the field it is about and the values that were sent.
 */
export async function updateRules({ request, context, competitionId }: CompetitionAct, form: FormData) {
  const fields = formFields(form);
  const values = Object.fromEntries(RULE_FIELDS.filter((f) => f in fields).map((f) => [f, fields[f].slice(0, 20)]));
  const refuse = (message: string, status: number) =>
    refused("update-rules", {}, message, status, { field: formFieldOfMessage(message), values });
  const parsed = rulesSchema.safeParse(fields);
  if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? RULE_MESSAGES.lives, 400);
  // The session is confirmed before the write, not in its message: update_competition_rules answers a refusal by
  // raising (42501, P0001), which fails the whole message it travels in, the session check included.
  const user = await requireUser(request, context);
  const result = await updateCompetitionRules(context.db, user.id, competitionId, parsed.data);
  if (!result.ok) {
    await endRefusedWrite(context.db); // nothing was written: the refused statement rolled the request's transaction back
    return refuse(result.message, result.status);
  }
  const failed = await commitOrRefuse(context.db, RULES_NOT_SAVED, { intent: "update-rules", field: null, values });
  if (failed) return failed;
  return redirectWithToast(context.env, `/competition/${competitionId}`, { type: "success", message: RULES_SAVED });
}

const RULES_NOT_SAVED = "Failed to save the rules.";
