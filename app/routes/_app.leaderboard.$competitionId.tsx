import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LiveMatchDayPanel, PickShares, ProvisionalKnockoutTable } from "~/components/LiveMatchDay";
import { KnockoutRouteView } from "~/components/KnockoutRouteView";
import { isUuid } from "~/lib/ids";
import { liveKeyOf } from "~/lib/live";
import { useLive } from "~/lib/use-live";
import { LeaderboardPage, NameCell, type StandingsTableProps } from "~/components/LeaderboardPage";
import type { KnockoutStanding } from "~/models/competition-rows.server";
import { loadLeaderboard } from "~/loaders/leaderboard.server";
import { getKnockoutLeaderboard } from "~/models/leaderboards.server";
import css from "~/styles/leaderboard.css?url";
import { PickedTeam, StatusBadge } from "~/components/Badges";

export { CompetitionErrorBoundary as ErrorBoundary } from "~/components/CompetitionNotFound";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `${data.competition.name} - Knockout Leaderboard | FootyCoach` : "Knockout Leaderboard | FootyCoach" },
];

export async function loader(args: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const asked = new URL(args.request.url).searchParams.get("route");
  const routeOf = isUuid(asked) ? asked : null;
  const { board, view } = await loadLeaderboard(args, "knockout", (db, userId, competitionId, page) =>
    getKnockoutLeaderboard(db, userId, competitionId, page, routeOf),
  );
  return {
    ...view,
    live: board.live,
    liveKey: liveKeyOf(board.competition),
    liveReadAt,
    shares: board.shares,
    liveRows: board.liveRows,
    route: board.route,
    routeOf: board.routeOf,
  };
}

/** Own pick always; others' picks Hidden before the deadline; Eliminated for eliminated players; -- when none. */
function Selection({ row, isMe }: { row: KnockoutStanding; isMe: boolean }) {
  if (row.status === "Eliminated") return <>Eliminated</>;
  if (!isMe && row.selectionHidden) return <em className="lb-hidden">Hidden</em>;
  return row.currentSelection ? <PickedTeam team={row.currentSelection} autoPicked={row.autoPicked} /> : <>--</>;
}

/**
 * On phones one line per player: name, status (with the elimination match day, or the lives left in a competition
 * of more than one life) and current selection.
 */
function KnockoutStandingsTable({ rows, me, caption }: StandingsTableProps<KnockoutStanding>) {
  const lives = rows.some((r) => r.livesLeft !== null);
  return (
    <table className="table lb-table lb-compact">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col" className="lb-status">
            Status
          </th>
          {lives ? (
            <th scope="col" className="lb-wide">
              Lives Left
            </th>
          ) : null}
          <th scope="col" className="lb-wide">
            Elimination Match Day
          </th>
          <th scope="col" className="lb-pick">
            Current Selection
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const isMe = row.userId === me;
          const out = row.status === "Eliminated" && row.knockedOutOn ? `Match Day ${row.knockedOutOn}` : null;
          return (
            <tr key={row.userId} className={isMe ? "is-me" : undefined}>
              <NameCell name={row.username} isMe={isMe} />
              <td className="lb-status">
                <StatusBadge status={row.status} />
                {out ? <span className="lb-phone-only lb-out">MD {row.knockedOutOn}</span> : null}
                {!out && row.livesLeft !== null ? (
                  <span className="lb-phone-only lb-out">
                    {row.livesLeft} {row.livesLeft === 1 ? "life" : "lives"}
                  </span>
                ) : null}
              </td>
              {lives ? (
                <td className="lb-wide" data-testid="lives-left">
                  {row.livesLeft ?? "--"}
                </td>
              ) : null}
              <td className="lb-wide">{out ?? "--"}</td>
              <td className="lb-selection lb-pick lb-ellipsis">
                <Selection row={row} isMe={isMe} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export default function KnockoutLeaderboardPage() {
  const view = useLoaderData<typeof loader>();
  useLive(view.liveKey ? [view.liveKey] : [], view.liveReadAt);
  return (
    <LeaderboardPage title="Knockout Leaderboard" view={view} Table={KnockoutStandingsTable}>
      <LiveMatchDayPanel line={view.live} fixtures={[]} shares={[]} />
      <ProvisionalKnockoutTable
        rows={view.liveRows}
        me={view.me}
        showLives={view.rows.some((r) => r.livesLeft !== null) || (view.mine?.livesLeft ?? null) !== null}
      />
      <PickShares shares={view.shares} stillIn={view.live?.remaining ?? null} />
      <KnockoutRouteView
        route={view.route}
        routeOf={view.routeOf}
        players={[...(view.mine ? [view.mine] : []), ...view.rows.filter((r) => r.userId !== view.me)]}
        me={view.me}
        page={view.page}
      />
    </LeaderboardPage>
  );
}
