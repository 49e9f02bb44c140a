/**
 * A player's standing in a competition in one word, the same on every page (dashboard, competition page,
 * Registered Players): a knockout reads Still In, Eliminated or Winner (the knockout board's words, spec
 * part 1 §3); a season Active, Winner (the top rank of an ended season) or Completed.
 */
export type PlayerStatusLabel = "Still In" | "Eliminated" | "Winner" | "Active" | "Completed";

export interface PlayerStatusInput {
  type: string;
  /** The competition's status: active, inactive. */
  competitionStatus: string;
  /** The membership's status: active, completed, eliminated. */
  membershipStatus: string;
  /** The season rank, when known. */
  rank?: number | null;
}

/** The competition has ended and this player won it: the knockout's last one(s) standing, the season's top rank. */
export function wonTitle(p: PlayerStatusInput): boolean {
  if (p.competitionStatus === "active") return false;
  if (p.type === "knockout") return p.membershipStatus !== "eliminated";
  return p.rank === 1;
}

export function playerStatusLabel(p: PlayerStatusInput): PlayerStatusLabel {
  if (p.membershipStatus === "eliminated") return "Eliminated";
  if (wonTitle(p)) return "Winner";
  if (p.competitionStatus !== "active" || p.membershipStatus === "completed") return "Completed";
  return p.type === "knockout" ? "Still In" : "Active";
}

/** A knockout player's lives left, as the pages say it beside their name (only when the competition has more than one). */
export function livesLeftText(livesLeft: number): string {
  return livesLeft === 1 ? "1 life left" : `${livesLeft} lives left`;
}
