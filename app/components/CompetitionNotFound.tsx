import { AppErrorBoundary } from "~/components/AppErrorBoundary";
import { StatusPage } from "~/components/StatusPage";

/**
 * The 404 that the pages of one competition (detail, team selection, knockout and season leaderboards) throw for an id that is
 * not a competition the player may read, and the error boundary that renders it: kept together so the thrown
 * status and the page shown for it cannot drift apart.
 */
export function competitionNotFound(): never {
  throw new Response("Competition not found", { status: 404, statusText: "Competition not found" });
}

const competitionHandlers = {
  404: () => (
    <StatusPage
      status={404}
      title="Competition not found"
      message="This competition does not exist or is no longer available."
      linkTo="/competitions"
      linkLabel="Browse Competitions"
    />
  ),
};

export function CompetitionErrorBoundary() {
  return <AppErrorBoundary handlers={competitionHandlers} />;
}
