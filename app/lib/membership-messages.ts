import type { CodeResult, JoinCode, JoinResult, Toastish, UnregisterCode, UnregisterResult } from "~/models/competitions.server";

/*
 * The words a player sees after joining or unregistering, on the competitions list and the competition page.
 * The codes come from the SQL functions (app/models/competitions.server.ts); the wording lives here.
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
