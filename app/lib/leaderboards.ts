/** The leaderboards' URLs and what their loaders hand the page (app/loaders/leaderboard.server.ts). */

/** The leaderboard of a competition: knockout and season boards live at different paths. */
export function leaderboardPath(competition: { id: string; type: string }) {
  return competition.type === "season" ? `/season-leaderboard/${competition.id}` : `/leaderboard/${competition.id}`;
}

/** What both leaderboard loaders return for this page; `me` is the signed-in player's id. */
export interface LeaderboardView<Row> {
  competition: { id: string; name: string; league: string; season: string; currentMatchDay: number };
  me: string;
  mine: Row | null;
  rows: Row[];
  page: number;
  pageCount: number;
}
