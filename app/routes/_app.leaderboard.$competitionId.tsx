import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, isRouteErrorResponse, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { Pager, pageFrom } from "~/components/Pager";
import { StatusPage } from "~/components/StatusPage";
import { getKnockoutLeaderboard, type KnockoutStanding } from "~/models/leaderboards.server";
import { isCompetitionId } from "~/models/selections.server";
import { requireUser } from "~/session.server";
import css from "~/styles/leaderboard.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `${data.competition.name} - Knockout Leaderboard | FootyCoach` : "Knockout Leaderboard | FootyCoach" },
];

function notFound(): never {
  throw new Response("Competition not found", { status: 404, statusText: "Competition not found" });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  if (!isCompetitionId(params.competitionId)) notFound();
  const url = new URL(request.url);
  const page = pageFrom(url);
  const board = await getKnockoutLeaderboard(context.db, user.id, params.competitionId, page);
  if (!board) notFound();
  const { competition } = board;
  if (competition.type === "season") throw redirect(`/season-leaderboard/${competition.id}${url.search}`);
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
    mine: board.mine,
    rows: board.rows,
    page: board.page,
    pageCount: board.pageCount,
  };
}

function statusBadge(status: string) {
  const tone = status === "Winner" ? "badge-info" : status === "Eliminated" ? "badge-danger" : "badge-success";
  return <span className={`badge ${tone}`}>{status}</span>;
}

/** Own pick always; others' picks Hidden before the deadline; Eliminated for eliminated players; -- when none. */
function Selection({ row, isMe }: { row: KnockoutStanding; isMe: boolean }) {
  if (row.status === "Eliminated") return <>Eliminated</>;
  if (!isMe && row.selectionHidden) return <em className="lb-hidden">Hidden</em>;
  return <>{row.currentSelection ?? "--"}</>;
}

function StandingsTable({ rows, me, caption }: { rows: KnockoutStanding[]; me: string; caption: string }) {
  return (
    <table className="table lb-table lb-cards">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col">Status</th>
          <th scope="col">Elimination Match Day</th>
          <th scope="col">Current Selection</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const isMe = row.userId === me;
          return (
            <tr key={row.userId} className={isMe ? "is-me" : undefined}>
              <th scope="row" data-label="Player" className="lb-username">
                {row.username}
                {isMe ? <span className="badge badge-muted lb-me-tag">You</span> : null}
              </th>
              <td data-label="Status">{statusBadge(row.status)}</td>
              <td data-label="Elimination Match Day">
                {row.status === "Eliminated" && row.knockedOutOn ? `Match Day ${row.knockedOutOn}` : "--"}
              </td>
              <td data-label="Current Selection" className="lb-selection">
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
  const d = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const c = d.competition;
  return (
    <div className="container leaderboard">
      <header className="page-header">
        <div>
          <h1>Knockout Leaderboard</h1>
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
