/**
 * What the competition page shows of history and seasons (decision 030), as the loader hands it to the components
 * (app/loaders/competition-history.server.ts makes it; app/components/competition/ArchivePanel.tsx and
 * NextSeasonPanel.tsx show it).
 */

/** A pick of an ended competition's match day. */
export interface ArchivePickRow {
  userId: string;
  username: string;
  team: string;
  /** "Home v Away". */
  match: string;
  /** "2 - 1" once complete, else null. */
  score: string | null;
  outcomeText: string;
}

/** A match day a next season may start on. */
export interface StartDay {
  season: string;
  matchDay: number;
  /** The match day's deadline in the player's time zone. */
  deadlineText: string;
}

export interface HistoryView {
  /** The one-tap Join: the player was in the last season, is not in this one, and registration is open. */
  invite: boolean;
  /** "Start next season" with its start days (the creator of an ended private competition), else null. */
  startDays: StartDay[] | null;
  next: { id: string; name: string } | null;
  /** The ended competition's picks, when it is in the player's archive. */
  archive: { matchDays: number[]; matchDay: number; picks: ArchivePickRow[]; page: number; pageCount: number } | null;
  canExport: boolean;
}
