/**
 * The 404 that the pages of one competition (detail, team selection, knockout and season leaderboards) throw for
 * an id that is not a competition the player may read. CompetitionErrorBoundary
 * (app/components/CompetitionNotFound.tsx) renders it.
 */
export function competitionNotFound(): never {
  throw new Response("Competition not found", { status: 404, statusText: "Competition not found" });
}
