import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import dashboardCss from "~/styles/dashboard.css?url";
import competitionsCss from "~/styles/competitions.css?url";
import { Countdown } from "~/components/Countdown";
import { CopyButton } from "~/components/CopyButton";
import { CreatePrivateCompetition } from "~/components/CreatePrivateCompetition";
import { InviteButtons } from "~/components/InviteButtons";
import { LockIcon, typeLabel } from "~/components/CompetitionCard";
import { getDashboard, selectionAction, type RegisteredCompetition } from "~/models/dashboard.server";
import { requireUserWith } from "~/session.server";
import { todayIn } from "~/lib/validation";
import { ordinal } from "~/lib/ordinal";
import { StatusBadge, TypeBadge } from "~/components/Badges";
import { playerCount } from "~/lib/player-count";
import { DashboardLiveLines } from "~/components/LiveMatchDay";
import { useLive } from "~/lib/use-live";

export const meta: MetaFunction = () => [{ title: "Dashboard | FootyCoach" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardCss },
  { rel: "stylesheet", href: competitionsCss },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, data: dashboard } = await requireUserWith(request, context, (userId) => getDashboard(context.db, userId));
  return {
    ...dashboard,
    registered: dashboard.registered.map((r) => ({ ...r, action: selectionAction(r) })),
    now: context.now.toISOString(),
    today: todayIn(context.now, user.timeZone),
    isAdmin: user.role === "admin",
    competitionsUrl: `${new URL(request.url).origin}/competitions`,
  };
}

type Row = RegisteredCompetition & { action: ReturnType<typeof selectionAction> };

function SelectionCell({ row }: { row: Row }) {
  const a = row.action;
  if (a.kind === "badge") {
    return <StatusBadge status={a.label} />;
  }
  return (
    <Link className="btn btn-primary btn-sm" to={`/select-team/${row.id}`}>
      {a.kind === "edit" ? "Edit Team" : "Select Team"}
    </Link>
  );
}

const dash = "–";

export default function DashboardPage() {
  const data = useLoaderData<typeof loader>();
  const registered = data.registered;
  // listens for the match days being played (decision 022): a change revalidates this page
  useLive(data.live);
  const names = Object.fromEntries(registered.map((r) => [r.id, r.name]));
  return (
    <div className="container dashboard">
      <header className="page-header">
        <h1>Dashboard</h1>
      </header>

      <DashboardLiveLines lines={data.live} names={names} />

      <section className="dashboard-section" aria-labelledby="upcoming-heading">
        <header>
          <h2 id="upcoming-heading">Upcoming Competitions</h2>
          <Link to="/competitions" className="btn btn-link">
            View all
          </Link>
        </header>
        {data.upcoming.length === 0 ? (
          <p className="empty-state">There are no upcoming competitions available.</p>
        ) : (
          <ul className="upcoming-list" aria-label="Upcoming competitions">
            {data.upcoming.map((c) => (
              <li key={c.id}>
                <article className="card upcoming-card">
                  <h3>
                    <Link to={`/competition/${c.id}`}>{c.name}</Link>
                    {c.visibility === "private" ? <LockIcon /> : null}
                  </h3>
                  <div className="meta">
                    <span>{c.league}</span>
                    <TypeBadge type={c.type} />
                  </div>
                  <Countdown deadline={c.registrationDeadline} serverNow={data.now} />
                  <div className="meta">{playerCount(c.playerCount)}</div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="dashboard-section" aria-labelledby="registered-heading">
        <header>
          <h2 id="registered-heading">Registered Competitions</h2>
        </header>
        {registered.length === 0 ? (
          <p className="empty-state">
            You have not joined any competitions yet. <Link to="/competitions">Browse competitions</Link>
          </p>
        ) : (
          <>
            <div className="table-wrap registered-table-wrap">
              <table className="table registered-table">
                <thead>
                  <tr>
                    <th scope="col">Competition</th>
                    <th scope="col">Type</th>
                    <th scope="col" className="num">
                      Rank
                    </th>
                    <th scope="col" className="num">
                      Wins
                    </th>
                    <th scope="col" className="num">
                      Draws
                    </th>
                    <th scope="col" className="num">
                      Losses
                    </th>
                    <th scope="col" className="num">
                      GF
                    </th>
                    <th scope="col" className="num">
                      GA
                    </th>
                    <th scope="col" className="num">
                      Points
                    </th>
                    <th scope="col">Team Selection</th>
                  </tr>
                </thead>
                <tbody>
                  {registered.map((r) => {
                    const ko = r.type === "knockout";
                    return (
                      <tr key={r.id}>
                        <th scope="row">
                          <Link to={`/competition/${r.id}`}>{r.name}</Link>
                        </th>
                        <td>{typeLabel(r.type)}</td>
                        <td className="num">{ko || r.rank == null ? dash : ordinal(r.rank)}</td>
                        <td className="num">{r.wins}</td>
                        <td className="num">{r.draws}</td>
                        <td className="num">{r.losses}</td>
                        <td className="num">{ko ? dash : r.goalsFor}</td>
                        <td className="num">{ko ? dash : r.goalsAgainst}</td>
                        <td className="num">{ko ? dash : r.points}</td>
                        <td>
                          <SelectionCell row={r} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <ul className="registered-cards" aria-label="Registered competitions">
              {registered.map((r) => (
                <li key={r.id} className="card">
                  <h3>
                    <Link to={`/competition/${r.id}`}>{r.name}</Link>
                  </h3>
                  <TypeBadge type={r.type} />
                  <dl>
                    {r.type === "knockout" && r.action.kind !== "badge" ? (
                      <>
                        <dt>Status</dt>
                        <dd>Still In</dd>
                      </>
                    ) : null}
                    {r.type !== "knockout" ? (
                      <>
                        <dt>Rank</dt>
                        <dd>{r.rank == null ? dash : ordinal(r.rank)}</dd>
                        <dt>Points</dt>
                        <dd>{r.points}</dd>
                      </>
                    ) : null}
                    <dt>Current Selection</dt>
                    <dd>{r.currentSelection ?? "--"}</dd>
                  </dl>
                  <SelectionCell row={r} />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section className="dashboard-section" aria-labelledby="private-heading">
        <header>
          <h2 id="private-heading">Your Private Competitions</h2>
          <CreatePrivateCompetition isAdmin={data.isAdmin} today={data.today} />
        </header>
        {data.privateCompetitions.length === 0 ? (
          <p className="empty-state">You have not created any private competitions yet.</p>
        ) : (
          <>
            <div className="table-wrap private-table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Competition</th>
                    <th scope="col">Registered Players</th>
                    <th scope="col">Status</th>
                    <th scope="col">Registration Key</th>
                    <th scope="col">Invite Players</th>
                  </tr>
                </thead>
                <tbody>
                  {data.privateCompetitions.map((c) => (
                    <tr key={c.id}>
                      <th scope="row">
                        <Link to={`/competition/${c.id}`}>{c.name}</Link>
                      </th>
                      <td>{c.playerCount}</td>
                      <td>{c.status === "active" ? "Active" : "Inactive"}</td>
                      <td>
                        {c.registrationKey ? (
                          <span className="private-key">
                            <code>{c.registrationKey}</code>
                            <CopyButton text={c.registrationKey} label={`Copy registration key of ${c.name}`} />
                          </span>
                        ) : (
                          dash
                        )}
                      </td>
                      <td>
                        {c.registrationKey ? (
                          <InviteButtons
                            competitionName={c.name}
                            registrationKey={c.registrationKey}
                            competitionsUrl={data.competitionsUrl}
                          />
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className="private-cards" aria-label="Your private competitions">
              {data.privateCompetitions.map((c) => (
                <li key={c.id} className="card">
                  <h3>
                    <Link to={`/competition/${c.id}`}>{c.name}</Link>
                  </h3>
                  <p>
                    Registered: {playerCount(c.playerCount)} · {c.status === "active" ? "Active" : "Inactive"}
                  </p>
                  {c.registrationKey ? (
                    <>
                      <span className="private-key">
                        <code>{c.registrationKey}</code>
                        <CopyButton text={c.registrationKey} label={`Copy registration key of ${c.name}`} />
                      </span>
                      <InviteButtons competitionName={c.name} registrationKey={c.registrationKey} competitionsUrl={data.competitionsUrl} />
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}
