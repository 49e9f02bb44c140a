import type { AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { commitOrRefuse, endRefusedWrite, invalid, parseForm } from "~/lib/forms.server";
import { jokerMessage } from "~/lib/outcome-messages";
import { playJoker, saveTeamSelection, type SaveSelectionCode } from "~/models/selections.server";
import { requireUserWith, writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * Team Selection's form posts (/select-team/{id}), one handler per intent; the route only picks the handler. The
 * database decides every rule (save_team_selection, play_joker); these read the form, send the write and answer.
 */

/** A match day in a form: digits, or empty / left out (= the current match day; for the joker, take it back). */
const matchDayField = z
  .string()
  .trim()
  .regex(/^(\d{1,3})?$/, "Please choose a match day from the list.")
  .optional()
  .transform((v) => (v ? Number(v) : null));

const SelectSchema = z.object({ team: z.string().trim().min(1).max(60), matchDay: matchDayField });
/** matchDay: where the joker goes (empty: taken back); md: the match day the page showed, where it returns. */
const JokerSchema = z.object({ matchDay: matchDayField, md: matchDayField });

/** The page a form came from: the match day it showed (none for the current one). */
const pageOf = (competitionId: string, matchDay: number | null) =>
  `/select-team/${competitionId}${matchDay === null ? "" : `?md=${matchDay}`}`;

/**
 * Saves the player's pick for the current match day, or a plan for a coming one (matchDay); the database decides
 * whether it is allowed (save_team_selection: a coming match day, an eligible team, plans included).
 */
export async function select(request: Request, context: AppLoadContext, competitionId: string, form: FormData) {
  const parsed = parseForm(form, SelectSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to save team selection.");
  const { matchDay } = parsed.data;
  const here = pageOf(competitionId, matchDay);

  // What the player chose, kept by the form when nothing could be saved (the dialog stays open: Yes tries again).
  const echo = { team: parsed.data.team };
  let code: SaveSelectionCode;
  try {
    // The pick travels with the session check and its COMMIT in one message (one round trip; decision 024): the
    // competition row it locks is held for the database's own time, not a round trip to the Worker and back. It
    // counts only if the session is confirmed (else it ran with no identity and wrote nothing).
    ({ data: code } = await requireUserWith(request, context, (userId) => {
      const saving = saveTeamSelection(context.db, userId, competitionId, parsed.data.team, matchDay);
      context.db.commitWithQueued();
      return saving;
    }));
  } catch (error) {
    // The login redirect, or a 400 for a value the database cannot take.
    if (error instanceof Response && error.status !== 503) throw error;
    // Nothing was saved: the database is unavailable (down, restarting, no pooled connection), or the message
    // failed (its COMMIT included). The spec's failure text with 503, never a stack trace, and the form keeps the
    // chosen team so that Yes tries again.
    if (!(error instanceof Response)) console.error("save_team_selection failed:", (error as Error)?.message ?? error);
    return invalid({}, "Failed to save team selection.", 503, echo);
  }
  if (code === "saved") {
    // The success toast only after the COMMIT: a failed one answers the spec's failure text with 503.
    const failed = await commitOrRefuse(context.db, "Failed to save team selection.", echo);
    if (failed) return failed;
    return redirectWithToast(context.env, here, { type: "success", message: "Team selection saved successfully!" });
  }
  return redirectWithToast(context.env, `${here}${matchDay === null ? "?" : "&"}error=${encodeURIComponent(code)}`, {
    type: "error",
    message: "Failed to save team selection.",
  });
}

/**
 * Plays the season joker on a match day, moves it there, or takes it back (an empty matchDay); public.play_joker
 * decides (once per competition, only a coming match day, only until the joker's match day's deadline).
 */
export async function joker(request: Request, context: AppLoadContext, competitionId: string, form: FormData) {
  const parsed = parseForm(form, JokerSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message);
  const { matchDay } = parsed.data;
  const code = await writeAsUser(request, context, (userId) => playJoker(context.db, userId, competitionId, matchDay));
  const toast = jokerMessage(code);
  if (toast.type === "success") {
    const failed = await commitOrRefuse(context.db, "Failed to play the joker.");
    if (failed) return failed;
  } else {
    await endRefusedWrite(context.db);
  }
  return redirectWithToast(context.env, pageOf(competitionId, parsed.data.md ?? matchDay), toast);
}
