import type { CodeResult, JoinCode, JoinResult, Toastish, UnregisterCode, UnregisterResult } from "~/models/competitions.server";
import type { SetSelectionCode } from "~/models/competition-detail.server";
import type { JoinNextSeasonCode } from "~/models/next-season.server";
import { BOTH_SCORES_MESSAGE } from "~/lib/scout";

/*
 * The one home of the words a player sees for an outcome code (decision 010): the codes come from the SQL
 * functions through the models; the wording lives here. Pure: the models' code types are imported as types only.
 *
 * - joining, registering and unregistering (the competitions list and the competition page);
 * - a refused pick on the team selection page, a manager's pick on the competition page;
 * - Scout's redeem and save toasts.
 */

/** The toast of a code (or a result): its message from the table, a failure after the action's prefix. */
function toastOf<C extends string>(codeOrResult: C | CodeResult<C>, messages: Record<C, Toastish>, failurePrefix: string): Toastish {
  const result = typeof codeOrResult === "string" ? { code: codeOrResult } : codeOrResult;
  if ("message" in result) return { type: "error", message: `${failurePrefix}: ${result.message}` };
  return { ...messages[result.code] };
}

// The one home of the join and unregister messages (spec part 1 §8); no_username is handled by a redirect instead.
const JOIN_MESSAGES: Record<JoinCode, Toastish> = {
  joined: { type: "success", message: "Successfully joined competition!" },
  already_joined: { type: "info", message: "You have already joined this competition!" },
  invalid_key: { type: "error", message: "Invalid registration key. Please check and try again." },
  registration_closed: { type: "error", message: "Failed to join competition: Registration is closed." },
  not_found: { type: "error", message: "Competition not found" },
  not_signed_in: { type: "info", message: "Please log in first!" },
  no_username: { type: "info", message: "Please complete your profile first." },
};

const UNREGISTER_MESSAGES: Record<UnregisterCode, Toastish> = {
  unregistered: { type: "success", message: "You have been unregistered." },
  registration_closed: { type: "error", message: "Failed to unregister: Registration is closed." },
  not_registered: { type: "error", message: "Failed to unregister: You are not registered for this competition." },
  not_signed_in: { type: "info", message: "You must be logged in." },
};

export const joinMessage = (codeOrResult: JoinCode | JoinResult) => toastOf(codeOrResult, JOIN_MESSAGES, "Failed to join competition");

export const unregisterMessage = (codeOrResult: UnregisterCode | UnregisterResult) =>
  toastOf(codeOrResult, UNREGISTER_MESSAGES, "Failed to unregister");

/**
 * Registering on the competition page (spec part 1 §8: "Failed to register: {server message} / Successfully
 * registered!"); the other answers read as on the competitions list.
 */
const REGISTER_MESSAGES: Record<JoinCode, Toastish> = {
  ...JOIN_MESSAGES,
  joined: { type: "success", message: "Successfully registered!" },
  registration_closed: { type: "error", message: "Failed to register: Registration is closed." },
};

export const registerMessage = (codeOrResult: JoinCode | JoinResult) => toastOf(codeOrResult, REGISTER_MESSAGES, "Failed to register");

/** The one-tap Join of a next season (decision 030): joining's words, and one for a player who was not invited. */
const JOIN_NEXT_SEASON_MESSAGES: Record<JoinNextSeasonCode, Toastish> = {
  ...JOIN_MESSAGES,
  not_invited: { type: "error", message: "Only players of the last season can join with one tap." },
};

export const joinNextSeasonMessage = (codeOrResult: JoinNextSeasonCode | CodeResult<JoinNextSeasonCode>) =>
  toastOf(codeOrResult, JOIN_NEXT_SEASON_MESSAGES, "Failed to join competition");

// Picks

/** The inline reason shown under the error toast when a pick is refused. */
export function selectionRefusalReason(code: string | null | undefined): string | null {
  switch (code) {
    case "selection_closed":
      return "Selection is closed for this match day.";
    case "not_eligible":
      return "That team is not available to you for this match day.";
    case "eliminated":
      return "You have been eliminated from this competition.";
    case "not_registered":
      return "You are not registered for this competition.";
    case "not_found":
      return "Competition not found";
    case "error":
      return "Something went wrong while saving. Please try again.";
    default:
      return null;
  }
}

/** The season joker (public.play_joker's codes) as the team selection page says it. */
export function jokerMessage(code: string): { type: "success" | "error"; message: string } {
  switch (code) {
    case "played":
      return { type: "success", message: "Joker played: that match day's points count double." };
    case "removed":
      return { type: "success", message: "Joker taken back." };
    case "joker_spent":
      return { type: "error", message: "Your joker's match day has started: it can no longer move." };
    case "joker_off":
      return { type: "error", message: "This competition has no joker." };
    case "not_season":
      return { type: "error", message: "The joker is for season competitions." };
    case "selection_closed":
      return { type: "error", message: "Selection is closed for this match day." };
    case "not_registered":
      return { type: "error", message: "You are not registered for this competition." };
    case "not_found":
      return { type: "error", message: "Competition not found" };
    default:
      return { type: "error", message: "Failed to play the joker." };
  }
}

export function setSelectionMessage(code: SetSelectionCode | "error"): { type: "success" | "error"; message: string } {
  switch (code) {
    case "saved":
      return { type: "success", message: "Selection updated successfully." };
    case "no_fixture":
      return { type: "error", message: "No fixture found for selected team on this matchday." };
    case "already_picked":
      return { type: "error", message: "This player has already picked. You can change their pick after the deadline." };
    default:
      return { type: "error", message: "Failed to update selection." };
  }
}

// Scout

type Toast = { type: "success" | "error"; message: string };

/** The toast after a redeem, as the spec words it. */
export function redeemToast(code: string): Toast {
  switch (code) {
    case "created":
      return { type: "success", message: "New entry created! Ticket redeemed." };
    case "no_tickets":
      return { type: "error", message: "No tickets available to redeem" };
    case "max_entries":
      return { type: "error", message: "Maximum 10 entries per matchday" };
    default:
      return { type: "error", message: "Failed to create new entry" };
  }
}

/** The toast after saving predictions (an invalid_score here can only be a missing side: ranges are checked first). */
export function saveToast(code: string): Toast {
  switch (code) {
    case "saved":
      return { type: "success", message: "Prediction saved!" };
    case "invalid_score":
      return { type: "error", message: BOTH_SCORES_MESSAGE };
    default:
      return { type: "error", message: "Failed to save prediction" };
  }
}

// A past pick's outcome (public.revealed_picks: private.pick_outcome_now's codes), in the archive and picks.csv.
const PICK_OUTCOMES: Record<string, string> = {
  win: "Won",
  draw: "Drawn",
  loss: "Lost",
  postponed: "Postponed",
  not_started: "Not played yet",
};

export const pickOutcomeText = (outcome: string): string => PICK_OUTCOMES[outcome] ?? outcome;
