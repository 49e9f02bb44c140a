import { ArchivePanel } from "~/components/competition/ArchivePanel";
import { CompetitionDownloads } from "~/components/competition/CompetitionDownloads";
import { NextSeasonInvite, NextSeasonLink, NextSeasonPanel } from "~/components/competition/NextSeasonPanel";
import type { HistoryView } from "~/lib/history";

/**
 * The competition page's history and seasons (decision 030), above its tabs: the link to the next season once it has
 * started, the one-tap Join for a player of the last season, and "Start next season" for the creator of an ended
 * private competition (with the refusal of its last try).
 */
export function HistoryHeader({
  history,
  competition,
  error,
}: {
  history: HistoryView;
  competition: { id: string; name: string };
  error: string | null;
}) {
  return (
    <>
      {history.next ? <NextSeasonLink next={history.next} /> : null}
      {history.invite ? <NextSeasonInvite competitionId={competition.id} name={competition.name} /> : null}
      {history.startDays ? <NextSeasonPanel startDays={history.startDays} error={error} /> : null}
    </>
  );
}

/** Below the standings: an ended competition's picks by match day, and the creator's and admins' downloads. */
export function HistoryFooter({ history, competitionId, tab }: { history: HistoryView; competitionId: string; tab: string }) {
  return (
    <>
      {history.archive ? <ArchivePanel {...history.archive} tab={tab} /> : null}
      {history.canExport ? <CompetitionDownloads competitionId={competitionId} /> : null}
    </>
  );
}
