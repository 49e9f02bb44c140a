import type { AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import type { SaveRefusal } from "~/components/scout/SelectPanel";
import type { RedeemTicketForEntryResult, SaveScoutPredictionsResult } from "~/db/row-types.generated";
import type { Db } from "~/db/types";
import { commitOrRefuse, invalid, parseForm } from "~/lib/forms.server";
import { UUID_PATTERN } from "~/lib/ids";
import { redeemToast, saveToast } from "~/lib/outcome-messages";
import { parseScores, scoutHref } from "~/lib/scout";
import { writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The Scout page's writes: redeeming a ticket into an entry and saving predictions, as the route's action runs them
 * (validated here, decided by the database functions), each committed before its answer says so.
 */

/** Redeems a ticket into a new entry for the current match day (FootyCoach first, then referral; SQL decides). */
export async function redeemTicket(db: Db, userId: string, competitionId: string): Promise<string> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<{ code: RedeemTicketForEntryResult }[]>`select public.redeem_ticket_for_entry(${userId}::uuid, ${competitionId}::uuid) as code`,
    );
    return rows[0]?.code ?? "error";
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("redeem_ticket_for_entry failed:", (error as Error)?.message ?? error);
    return "error";
  }
}

/** Saves one or more predictions of one entry, all or nothing (the database checks owner, lock, fixture, range). */
export async function savePredictions(
  db: Db,
  userId: string,
  entryId: string,
  predictions: { fixture_id: string; home_goals: number; away_goals: number }[],
): Promise<string> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<
          { code: SaveScoutPredictionsResult }[]
        >`select public.save_scout_predictions(${entryId}::uuid, ${JSON.stringify(predictions)}::jsonb) as code`,
    );
    return rows[0]?.code ?? "error";
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("save_scout_predictions failed:", (error as Error)?.message ?? error);
    return "error";
  }
}

const RedeemSchema = z.object({ competitionId: z.string().regex(UUID_PATTERN, "Failed to create new entry") });
const SaveSchema = z.object({
  competitionId: z.string().regex(UUID_PATTERN, "Failed to save prediction"),
  entryId: z.string().regex(UUID_PATTERN, "Failed to save prediction"),
  fixture: z
    .string()
    .regex(/^\d{1,15}$/, "Failed to save prediction")
    .optional(),
});

export async function redeem(request: Request, context: AppLoadContext, form: FormData) {
  const parsed = parseForm(form, RedeemSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to create new entry", 400, { intent: "redeem" as const });
  const { competitionId } = parsed.data;
  const code = await writeAsUser(request, context, (userId) => redeemTicket(context.db, userId, competitionId));
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, scoutHref(parsed.data.competitionId), redeemToast(code));
}

/**
 * Saves one fixture (the Save Prediction button sends `fixture`) or the whole entry (Save Entry: every fixture
 * with scores). Bad input is answered in place with the submitted values; the database's refusals as a toast.
 */
export async function save(request: Request, context: AppLoadContext, form: FormData) {
  const parsed = parseForm(form, SaveSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to save prediction", 400, { intent: "save-predictions" as const });
  const { competitionId, entryId, fixture } = parsed.data;
  // The fixtures the form carries: home.<fixture id> and away.<fixture id>.
  const values: SaveRefusal["values"] = {};
  for (const [key, value] of form) {
    const m = /^(home|away)\.(\d{1,15})$/.exec(key);
    if (!m || typeof value !== "string") continue;
    values[m[2]] ??= { home: "", away: "" };
    values[m[2]][m[1] as "home" | "away"] = value.slice(0, 5);
  }
  if (Object.keys(values).length > 100) return invalid({}, "Failed to save prediction", 400, { intent: "save-predictions" as const });
  const ids = fixture ? [fixture] : Object.keys(values);
  const scores = parseScores(ids.map((id) => ({ fixtureId: id, home: values[id]?.home ?? "", away: values[id]?.away ?? "" })));
  if (!scores.ok) {
    const refusal: SaveRefusal = { intent: "save-predictions", entryId, fixtureId: scores.fixtureId, message: scores.message, values };
    return invalid({ score: scores.message }, scores.message, 400, refusal);
  }
  const code = await writeAsUser(request, context, (userId) => savePredictions(context.db, userId, entryId, scores.predictions));
  // Scoring runs at COMMIT (a deferred trigger): the answer says "saved" only once the COMMIT is done.
  const failed = await commitOrRefuse(context.db, "Failed to save prediction", { intent: "save-predictions" as const, entryId, values });
  if (failed) return failed;
  const anchor = fixture ? `#fixture-${entryId}-${fixture}` : `#entry-${entryId}`;
  return redirectWithToast(context.env, `${scoutHref(competitionId)}${anchor}`, saveToast(code));
}
