import { RULE_MESSAGES } from "~/lib/competition-rules";

/*
 * Which field of a competition form (create private, admin's Create Competition, the creator's rules) a refusal
 * belongs to, so the form shows the message next to that field. The messages are the server's (zod's and the SQL
 * functions' are the same words: app/lib/competition-rules.ts); this only places them.
 */

export type CompetitionFormField =
  | "name"
  | "type"
  | "league"
  | "season"
  | "startDate"
  | "startMatchDay"
  | "lives"
  | "draws"
  | "missedPick"
  | "everyoneOut"
  | "points"
  | "joker";

const BY_MESSAGE: Record<string, CompetitionFormField> = {
  [RULE_MESSAGES.lives]: "lives",
  [RULE_MESSAGES.draws]: "draws",
  [RULE_MESSAGES.missedPick]: "missedPick",
  [RULE_MESSAGES.everyoneOut]: "everyoneOut",
  [RULE_MESSAGES.points]: "points",
  [RULE_MESSAGES.pointsOrder]: "points",
  [RULE_MESSAGES.joker]: "joker",
  "Type must be knockout or season.": "type",
  "Please choose a league from the list.": "league",
  "Please choose a season from the list.": "season",
  "Start Match Day must be a positive whole number.": "startMatchDay",
  "Start Match Day must be a match day that has not started yet.": "startMatchDay",
  "Competition name must be at most 100 characters.": "name",
  "A competition with this name and type already exists.": "name",
};

/** The field a refusal's message is about; null for a message about the whole form (or one not known here). */
export function formFieldOfMessage(message: string): CompetitionFormField | null {
  if (BY_MESSAGE[message]) return BY_MESSAGE[message];
  if (message.startsWith("Start date")) return "startDate";
  return null;
}
