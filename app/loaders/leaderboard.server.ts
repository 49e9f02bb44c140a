import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { competitionNotFound } from "~/lib/competition-not-found";
import { leaderboardPath, type LeaderboardView } from "~/lib/leaderboards";
import { pageFrom } from "~/lib/paging";
import { redirectPastLastPage } from "~/lib/last-page.server";
import type { Db } from "~/db/types";
import type { Leaderboard } from "~/models/leaderboards.server";
import { requireUserWith } from "~/session.server";
import { isUuid } from "~/lib/ids";

type ReadBoard<Board> = (db: Db, userId: string, competitionId: string, page: number) => Promise<Board | null>;

/**
 * The loader both leaderboard routes run around reading their board (one db.asUser call, in `read`): sign-in,
 * 404 for an unknown competition, the other board's URL for a competition of the other type and the last page
 * for a page past the end (both keep the rest of the query string, so shared links survive). Returns the board
 * for page-specific extras and the view that LeaderboardPage renders, with only the competition fields it shows.
 */
export async function loadLeaderboard<Board extends Leaderboard<Board["rows"][number]>>(
  { request, params, context }: LoaderFunctionArgs,
  type: "knockout" | "season",
  read: ReadBoard<Board>,
): Promise<{ board: Board; view: LeaderboardView<Board["rows"][number]> }> {
  const competitionId = params.competitionId;
  const url = new URL(request.url);
  const page = pageFrom(url);
  const { user, data: board } = await requireUserWith(request, context, async (userId) =>
    isUuid(competitionId) ? read(context.db, userId, competitionId, page) : null,
  );
  if (!board) competitionNotFound();
  const { competition } = board;
  if (competition.type !== type) throw redirect(`${leaderboardPath(competition)}${url.search}`);
  redirectPastLastPage(url, { page, pageCount: board.pageCount });
  const view = {
    competition: {
      id: competition.id,
      name: competition.name,
      league: competition.league,
      season: competition.season,
      currentMatchDay: competition.currentMatchDay,
    },
    me: user.id,
    mine: board.mine,
    rows: board.rows,
    page: board.page,
    pageCount: board.pageCount,
  };
  return { board, view };
}
