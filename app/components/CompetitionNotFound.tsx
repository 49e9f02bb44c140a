import { AppErrorBoundary } from "~/components/AppErrorBoundary";
import { StatusPage } from "~/components/StatusPage";

/**
 * The page the pages of one competition (detail, team selection, knockout and season leaderboards) show for the
 * 404 they throw (competitionNotFound in app/lib/competition-not-found.ts) for an id that is not a competition
 * the player may read.
 */

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
