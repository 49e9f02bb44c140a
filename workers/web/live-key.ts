/**
 * The name of a live match day's Durable Object (decision 022): one per league, season and match day. Its own
 * module, free of runtime imports, so that every Worker that notifies the object (the web Worker after an admin's
 * change, the scheduler after the feed's) names it the same way.
 */

/** A match day: the key of one live object. */
export interface LiveKey {
  league: string;
  season: string;
  matchDay: number;
}

export function liveObjectName(league: string, season: string, matchDay: number): string {
  return JSON.stringify([league, season, matchDay]);
}
