/**
 * What a missed pick means, in the words every page uses (game rules: a knockout player without a pick by
 * the deadline is eliminated; in a season no pick scores nothing).
 */
export function missedPickConsequence(type: string): string {
  return type === "knockout" ? "No pick means you are eliminated." : "No pick scores 0 points.";
}

/**
 * After the deadline, for an active member with no pick for the current match day: what will happen.
 */
export function missedPickOutcome(type: string, matchDay: number): string {
  return type === "knockout"
    ? `You made no pick for Match Day ${matchDay}: you will be eliminated when it is processed.`
    : `You made no pick for Match Day ${matchDay}: it scores 0 points.`;
}

/** The countdown's caption where a pick is made. */
export const SELECTION_CAPTION = "Until team selection closes";
