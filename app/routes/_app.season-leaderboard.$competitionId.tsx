import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LiveMatchDayPanel, PickShares, ProvisionalSeasonTable } from "~/components/LiveMatchDay";
import { liveKeyOf } from "~/lib/live";
import { useLive } from "~/lib/use-live";
import { Confetti } from "~/components/Confetti";
import { LeaderboardPage, NameCell, type StandingsTableProps } from "~/components/LeaderboardPage";
import { SeasonStatCells, SeasonStatHeadings } from "~/components/SeasonStatColumns";
import { ordinal } from "~/lib/ordinal";
import type { SeasonStanding } from "~/models/competition-rows.server";
import { loadLeaderboard } from "~/loaders/leaderboard.server";
import { getSeasonLeaderboard } from "~/models/leaderboards.server";
import css from "~/styles/leaderboard.css?url";

export { CompetitionErrorBoundary as ErrorBoundary } from "~/components/CompetitionNotFound";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `${data.competition.name} - Season Leaderboard | FootyCoach` : "Season Leaderboard | FootyCoach" },
];

export async function loader(args: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const { board, view } = await loadLeaderboard(args, "season", getSeasonLeaderboard);
  return {
    ...view,
    champion: board.champion,
    live: board.live,
    liveKey: liveKeyOf(board.competition),
    liveReadAt,
    shares: board.shares,
    liveRows: board.liveRows,
  };
}

function SeasonStandingsTable({ rows, me, caption }: StandingsTableProps<SeasonStanding>) {
  return (
    <table className="table lb-table lb-compact">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="lb-rank">
            Rank
          </th>
          <th scope="col">Username</th>
          <SeasonStatHeadings />
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={s.userId} className={s.userId === me ? "is-me" : undefined}>
            <td className="lb-rank">{s.rank ? ordinal(s.rank) : "--"}</td>
            <NameCell name={s.username} isMe={s.userId === me} />
            <SeasonStatCells standing={s} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function SeasonLeaderboardPage() {
  const d = useLoaderData<typeof loader>();
  const c = d.competition;
  // An ended season (a champion) has no live match day left: no socket, so nothing revalidates the page while its
  // champion's confetti plays.
  useLive(d.liveKey && !d.champion ? [d.liveKey] : [], d.liveReadAt);
  return (
    <LeaderboardPage title="Season Leaderboard" view={d} Table={SeasonStandingsTable}>
      <LiveMatchDayPanel line={d.live} fixtures={[]} shares={[]} />
      <ProvisionalSeasonTable rows={d.liveRows} me={d.me} />
      <PickShares shares={d.shares} />
      {d.champion ? (
        <section className="card champion-banner" aria-label="Champion">
          <h2>Champion: {d.champion}</h2>
          <p>
            Congratulations to {d.champion}, champion of {c.name}!
          </p>
          <Confetti storageKey={`footycoach:confetti:${c.id}`} />
        </section>
      ) : null}
    </LeaderboardPage>
  );
}
