import { z } from "zod";

/**
 * football-data.org API v4: the parts of GET /competitions/{code}/matches the feed reads (docs: "Dealing with
 * scores", "API policies"). Parsed leniently: a match that does not fit is skipped on its own (map.ts), never the
 * whole answer; statuses are plain strings so a status the API adds later is skipped, not a crash.
 */

const Goals = z.number().int().nullable().optional();

/** One of score.fullTime / regularTime / extraTime / penalties / halfTime. */
const ScorePair = z.object({ home: Goals, away: Goals }).nullable().optional();

export const V4Team = z.object({
  // null for a knockout slot whose team is not known yet
  id: z.number().int().positive().nullable(),
  name: z.string().max(200).nullable(),
  shortName: z.string().max(200).nullable().optional(),
  tla: z.string().max(10).nullable().optional(),
});

export const V4Match = z.object({
  id: z.number().int().positive(),
  utcDate: z.string().max(40),
  // SCHEDULED, TIMED, IN_PLAY, PAUSED, FINISHED, SUSPENDED, POSTPONED, CANCELLED, AWARDED (and whatever comes next)
  status: z.string().max(40),
  matchday: z.number().int().nullable().optional(),
  lastUpdated: z.string().max(40).nullable().optional(),
  homeTeam: V4Team,
  awayTeam: V4Team,
  score: z
    .object({
      // REGULAR, EXTRA_TIME, PENALTY_SHOOTOUT
      duration: z.string().max(40).nullable().optional(),
      fullTime: ScorePair,
      regularTime: ScorePair,
      extraTime: ScorePair,
      penalties: ScorePair,
      halfTime: ScorePair,
    })
    .nullable()
    .optional(),
});
export type V4Match = z.infer<typeof V4Match>;

/** The envelope: { filters, resultSet, competition, matches: [...] }; only the list is needed. */
export const V4MatchesResponse = z.object({ matches: z.array(z.unknown()) });
