import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, isRouteErrorResponse, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { Confetti } from "~/components/Confetti";
import { Pager, pageFrom } from "~/components/Pager";
import { StatusPage } from "~/components/StatusPage";
import { ordinal } from "~/lib/ordinal";
import { getSeasonLeaderboard, type SeasonStanding } from "~/models/leaderboards.server";
import { isCompetitionId } from "~/models/selections.server";
import { requireUser } from "~/session.server";
import css from "~/styles/leaderboard.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `${data.competition.name} - Season Leaderboard | FootyCoach` : "Season Leaderboard | FootyCoach" },
];

function notFound(): never {
  throw new Response("Competition not found", { status: 404, statusText: "Competition not found" });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  if (!isCompetitionId(params.competitionId)) notFound();
  const url = new URL(request.url);
  const page = pageFrom(url);
  const board = await getSeasonLeaderboard(context.db, user.id, params.competitionId, page);
  if (!board) notFound();
  const { competition } = board;
  if (competition.type !== "season") throw redirect(`/leaderboard/${competition.id}${url.search}`);
  if (page > board.pageCount) {
    const params = new URLSearchParams(url.search);
    params.set("page", String(board.pageCount));
    if (board.pageCount <= 1) params.delete("page");
    const qs = params.toString();
    throw redirect(`${url.pathname}${qs ? `?${qs}` : ""}`);
  }
  return {
    competition: {
      id: competition.id,
      name: competition.name,
      league: competition.league,
      season: competition.season,
      currentMatchDay: competition.currentMatchDay,
    },
    me: user.id,
    champion: board.champion,
    mine: board.mine,
    rows: board.rows,
    page: board.page,
    pageCount: board.pageCount,
  };
}

function StandingsTable({ rows, me, caption }: { rows: SeasonStanding[]; me: string; caption: string }) {
  return (
    <table className="table lb-table lb-compact">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="lb-rank">Rank</th>
          <th scope="col">Username</th>
          <th scope="col" className="numeric"><abbr title="Wins">W</abbr></th>
          <th scope="col" className="numeric"><abbr title="Draws">D</abbr></th>
          <th scope="col" className="numeric"><abbr title="Losses">L</abbr></th>
          <th scope="col" className="numeric"><abbr title="Goals for">GF</abbr></th>
          <th scope="col" className="numeric"><abbr title="Goals against">GA</abbr></th>
          <th scope="col" className="numeric"><abbr title="Points">Pts</abbr></th>
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => {
          const isMe = s.userId === me;
          return (
            <tr key={s.userId} className={isMe ? "is-me" : undefined}>
              <td className="lb-rank">{s.rank ? ordinal(s.rank) : "--"}</td>
              <th scope="row" className="lb-username" title={s.username}>
                {s.username}
              </th>
              <td className="numeric">{s.wins}</td>
              <td className="numeric">{s.draws}</td>
              <td className="numeric">{s.losses}</td>
              <td className="numeric">{s.goalsFor}</td>
              <td className="numeric">{s.goalsAgainst}</td>
              <td className="numeric">{s.points}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export default function SeasonLeaderboardPage() {
  const d = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const c = d.competition;
  return (
    <div className="container leaderboard">
      <header className="page-header">
        <div>
          <h1>Season Leaderboard</h1>
          <p className="subtitle">
            {c.name} · {c.league} · {c.season} · Match Day {c.currentMatchDay}
          </p>
        </div>
        <Link className="btn btn-secondary" to={`/competition/${c.id}`}>
          View Competition
        </Link>
      </header>

      {navigation.state === "loading" ? (
        <p className="loading" role="status">
          Loading...
        </p>
      ) : null}

      {d.champion ? (
        <section className="card champion-banner" aria-label="Champion">
          <h2>Champion: {d.champion}</h2>
          <p>
            Congratulations to {d.champion}, champion of {c.name}!
          </p>
          <Confetti storageKey={`footycoach:confetti:${c.id}`} />
        </section>
      ) : null}

      <section className="card leaderboard-section" aria-labelledby="your-standings">
        <h2 id="your-standings">Your Standings</h2>
        {d.mine ? (
          <StandingsTable rows={[d.mine]} me={d.me} caption="Your standing" />
        ) : (
          <p className="not-found">Not found</p>
        )}
      </section>

      <section className="card leaderboard-section" aria-labelledby="competition-standings">
        <h2 id="competition-standings">Competition Standings</h2>
        {d.rows.length === 0 ? (
          <p className="empty-state">No players have registered yet.</p>
        ) : (
          <StandingsTable rows={d.rows} me={d.me} caption={`Competition standings, page ${d.page} of ${d.pageCount}`} />
        )}
        <Pager page={d.page} pageCount={d.pageCount} label="Standings pages" />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
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
