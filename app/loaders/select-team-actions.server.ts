import type { AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { commitOrRefuse, endRefusedWrite, invalid, parseForm } from "~/lib/forms.server";
import { jokerMessage } from "~/lib/outcome-messages";
import { playJoker, saveTeamSelection, type JokerCode, type SaveSelectionCode } from "~/models/selections.server";
import { requireUserWith, writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The Team Selection page's writes (decision 028), kept out of the route module: the route only routes the intent.
 * Every rule is SQL's (save_team_selection, play_joker); these read the form, send the write with the session check
 * and answer only after the COMMIT.
 */

/** A match day as a form sends it: digits (1..999) or empty (the current match day / the joker taken back). */
const matchDayField = z
  .string()
  .trim()
  .regex(/^(\d{1,3})?$/, "Match day must be a whole number.")
  .optional()
  .transform((v) => (v ? Number(v) : null));

const SelectSchema = z.object({ team: z.string().trim().min(1).max(60), matchDay: matchDayField });
/** matchDay: where the joker goes (empty: taken back); md: the match day the page showed, where the answer returns. */
const JokerSchema = z.object({ matchDay: matchDayField, md: matchDayField });

/** The page a write returns to: the match day it was about, when it is not the current one. */
const pageOf = (competitionId: string, matchDay: number | null) =>
  `/select-team/${competitionId}${matchDay === null ? "" : `?md=${matchDay}`}`;

/**
 * intent=select with `team` and optional `matchDay` (a coming match day: a plan; none: the current match day). The
 * pick travels with the session check and its COMMIT in one message (one round trip; decision 024).
 */
export async function selectTeam(request: Request, context: AppLoadContext, competitionId: string, form: FormData) {
  const parsed = parseForm(form, SelectSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to save team selection.");
  const { team, matchDay } = parsed.data;
  const here = pageOf(competitionId, matchDay);

  // What the player chose, kept by the form when nothing could be saved (the dialog stays open: Yes tries again).
  const echo = { team };
  let code: SaveSelectionCode;
  try {
    ({ data: code } = await requireUserWith(request, context, (userId) => {
      const saving = saveTeamSelection(context.db, userId, competitionId, team, matchDay);
      context.db.commitWithQueued();
      return saving;
    }));
  } catch (error) {
    // The login redirect, or a 400 for a value the database cannot take.
    if (error instanceof Response && error.status !== 503) throw error;
    // Nothing was saved: the database is unavailable, or the message failed (its COMMIT included). The spec's
    // failure text with 503, never a stack trace, and the form keeps the chosen team so that Yes tries again.
    if (!(error instanceof Response)) console.error("save_team_selection failed:", (error as Error)?.message ?? error);
    return invalid({}, "Failed to save team selection.", 503, echo);
  }
  if (code === "saved") {
    // The success toast only after the COMMIT: a failed one answers the spec's failure text with 503.
    const failed = await commitOrRefuse(context.db, "Failed to save team selection.", echo);
    if (failed) return failed;
    return redirectWithToast(context.env, here, { type: "success", message: "Team selection saved successfully!" });
  }
  const sep = here.includes("?") ? "&" : "?";
  return redirectWithToast(context.env, `${here}${sep}error=${encodeURIComponent(code)}`, {
    type: "error",
    message: "Failed to save team selection.",
  });
}

/** intent=joker with `matchDay` (a coming match day of a season with the joker on; empty: take it back). */
export async function jokerAction(request: Request, context: AppLoadContext, competitionId: string, form: FormData) {
  const parsed = parseForm(form, JokerSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent: "joker" });
  const { matchDay } = parsed.data;
  const code: JokerCode = await writeAsUser(request, context, (userId) => playJoker(context.db, userId, competitionId, matchDay));
  const toast = jokerMessage(code);
  if (code !== "played" && code !== "removed") {
    await endRefusedWrite(context.db);
    return invalid({}, toast.message, code === "not_found" ? 404 : 400, { intent: "joker" });
  }
  const failed = await commitOrRefuse(context.db, "Failed to play the joker.", { intent: "joker" });
  if (failed) return failed;
  return redirectWithToast(context.env, pageOf(competitionId, parsed.data.md ?? matchDay), toast);
}
