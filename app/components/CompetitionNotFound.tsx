import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { StatusPage } from "~/components/StatusPage";

/**
 * The 404 that the pages of one competition (detail, team selection, knockout and season leaderboards) throw for an id that is
 * not a competition the player may read, and the error boundary that renders it: kept together so the thrown
 * status and the page shown for it cannot drift apart.
 */
export function competitionNotFound(): never {
  throw new Response("Competition not found", { status: 404, statusText: "Competition not found" });
}

export function CompetitionErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusPage
        status={404}
        title="Competition not found"
        message="This competition does not exist or is no longer available."
        linkTo="/competitions"
        linkLabel="Browse Competitions"
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 503) {
    return <StatusPage status={503} title="Temporarily unavailable" message="FootyCoach is temporarily unavailable. Please try again in a few minutes." />;
  }
  return <StatusPage status={500} title="Something went wrong" message="An unexpected error occurred. Please try again." />;
}
