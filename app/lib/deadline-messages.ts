import type { MissedPickRule } from "~/lib/competition-rules";

/**
 * What a missed pick means, in the words every page uses (game rules: a knockout player without a pick by the
 * deadline loses a life, so with one life is eliminated, unless the organiser chose auto-pick; in a season no pick
 * scores nothing). The rules themselves are SQL's (match-day processing); these only say them.
 */
export interface MissedPickContext {
  /** The competition's missed-pick rule, where the page knows it (default: a missed pick costs a life). */
  missedPick?: MissedPickRule;
  /** The player's lives left in a knockout of more than one life (null or left out: one life). */
  livesLeft?: number | null;
}

export function missedPickConsequence(type: string, ctx: MissedPickContext = {}): string {
  if (type !== "knockout") return "No pick scores 0 points.";
  if (ctx.missedPick === "auto") return "No pick by the deadline means an auto-pick.";
  if (ctx.livesLeft != null && ctx.livesLeft > 1) return "No pick costs a life.";
  return "No pick means you are eliminated.";
}

/**
 * After the deadline, for an active member with no pick for the current match day: what will happen.
 */
export function missedPickOutcome(type: string, matchDay: number, ctx: MissedPickContext = {}): string {
  const prefix = `You made no pick for Match Day ${matchDay}`;
  if (type !== "knockout") return `${prefix}: it scores 0 points.`;
  if (ctx.missedPick === "auto") return `${prefix}: you will be auto-picked.`;
  if (ctx.livesLeft != null && ctx.livesLeft > 1) return `${prefix}: it costs a life when it is processed.`;
  return `${prefix}: you will be eliminated when it is processed.`;
}

/** The countdown's caption where a pick is made. */
export const SELECTION_CAPTION = "Until team selection closes";
