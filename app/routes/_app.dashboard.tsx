import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import dashboardCss from "~/styles/pages/dashboard.css?url";
import { Countdown } from "~/components/Countdown";
import { CopyButton } from "~/components/CopyButton";
import { CreatePrivateCompetition } from "~/components/CreatePrivateCompetition";
import { InviteButtons } from "~/components/InviteButtons";
import { LockIcon, typeLabel } from "~/components/CompetitionCard";
import { getDashboard, playerStatus, selectionAction, type RegisteredCompetition } from "~/models/dashboard.server";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { requireUserWith } from "~/session.server";
import { todayIn } from "~/lib/validation";
import { ordinal } from "~/lib/ordinal";
import { StatusBadge, TypeBadge } from "~/components/Badges";
import { playerCount } from "~/lib/player-count";
import { DashboardLiveLines } from "~/components/LiveMatchDay";
import { useLive } from "~/lib/use-live";

export const meta: MetaFunction = () => [{ title: "Dashboard | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardCss }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const { user, data: dashboard } = await requireUserWith(request, context, (userId) => getDashboard(context.db, userId));
  return {
    ...dashboard,
    liveReadAt,
    registered: dashboard.registered.map((r) => ({
      ...r,
      action: selectionAction(r),
      status: playerStatus(r),
      // After the deadline an active member without a pick is told what that means (knockout: out).
      missedPick:
        !r.currentSelection &&
        r.selectionStatus === "closed" &&
        r.competitionStatus === "active" &&
        r.membershipStatus === "active" &&
        r.selectionDeadline !== null &&
        new Date(r.selectionDeadline).getTime() <= context.now.getTime(),
    })),
    now: context.now.toISOString(),
    today: todayIn(context.now, user.timeZone),
    isAdmin: user.role === "admin",
    competitionsUrl: `${new URL(request.url).origin}/competitions`,
  };
}

type Row = RegisteredCompetition & { action: ReturnType<typeof selectionAction>; status: string; missedPick: boolean };

/** The row's next step: Select / Edit Team with the time left and what a missed pick means, or the badge. */
function SelectionCell({ row, now }: { row: Row; now: string }) {
  const a = row.action;
  if (a.kind === "badge") {
    return (
      <div className="selection-cell">
        <StatusBadge status={a.label} />
        {row.missedPick ? <p className="deadline-missed">{missedPickOutcome(row.type, row.currentMatchDay)}</p> : null}
      </div>
    );
  }
  return (
    <div className="selection-cell">
      <Link className="btn btn-primary btn-sm" to={`/select-team/${row.id}`}>
        {a.kind === "edit" ? "Edit Team" : "Select Team"}
      </Link>
      <Countdown deadline={row.selectionDeadline} serverNow={now} caption={SELECTION_CAPTION} />
      {a.kind === "select" ? <p className="deadline-consequence">{missedPickConsequence(row.type)}</p> : null}
    </div>
  );
}

interface UpcomingCard {
  id: string;
  visibility: "public" | "private";
  joined: boolean;
}

/**
 * An upcoming card's next step: Select Team once joined, else Join (a plain form to the competitions page's
 * join action that works without JavaScript; a private competition opens its key dialog there).
 */
function UpcomingAction({ c }: { c: UpcomingCard }) {
  if (c.joined) {
    return (
      <Link className="btn btn-primary btn-sm" to={`/select-team/${c.id}`}>
        Select Team
      </Link>
    );
  }
  if (c.visibility === "private") {
    return (
      <Link className="btn btn-primary btn-sm" to={`/competitions?join=${c.id}`}>
        Join
      </Link>
    );
  }
  return (
    <Form method="post" action="/competitions" className="inline-form">
      <input type="hidden" name="intent" value="join" />
      <input type="hidden" name="competitionId" value={c.id} />
      <input type="hidden" name="redirectTo" value="/dashboard" />
      <button type="submit" className="btn btn-primary btn-sm">
        Join
      </button>
    </Form>
  );
}

const dash = "–";

export default function DashboardPage() {
  const data = useLoaderData<typeof loader>();
  const registered = data.registered;
  // listens for the match days being played (decision 022): a change revalidates this page
  useLive(data.live, data.liveReadAt);
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
                  <Countdown deadline={c.registrationDeadline} serverNow={data.now} announce="Registration" />
                  <div className="meta">{playerCount(c.playerCount)}</div>
                  <div className="upcoming-actions">
                    <UpcomingAction c={c} />
                  </div>
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
          <div className="empty-state next-steps">
            <p>You have not joined any competitions yet.</p>
            <Link to="/competitions" className="btn btn-primary">
              Browse competitions
            </Link>
          </div>
        ) : (
          // One markup for every screen: a table on desktop, each row a card on phones (responsive-table). Only
          // the phone card shows Current Selection; the win, draw, loss and goal columns are left out there.
          <div className="table-wrap dash-table-wrap">
            <table className="table responsive-table registered-table">
              <thead>
                <tr>
                  <th scope="col">Competition</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Rank
                  </th>
                  <th scope="col" className="num dash-wide">
                    Wins
                  </th>
                  <th scope="col" className="num dash-wide">
                    Draws
                  </th>
                  <th scope="col" className="num dash-wide">
                    Losses
                  </th>
                  <th scope="col" className="num dash-wide">
                    GF
                  </th>
                  <th scope="col" className="num dash-wide">
                    GA
                  </th>
                  <th scope="col" className="num">
                    Points
                  </th>
                  <th scope="col" className="dash-phone-only">
                    Current Selection
                  </th>
                  <th scope="col">Team Selection</th>
                </tr>
              </thead>
              <tbody>
                {registered.map((r) => {
                  const ko = r.type === "knockout";
                  // a knockout's card has no rank or points (the table shows a dash)
                  const seasonOnly = ko ? " dash-wide" : "";
                  return (
                    <tr key={r.id}>
                      <th scope="row">
                        <Link to={`/competition/${r.id}`}>{r.name}</Link>
                      </th>
                      <td data-label="Type">{typeLabel(r.type)}</td>
                      <td data-label="Status">
                        <StatusBadge status={r.status} />
                      </td>
                      <td data-label="Rank" className={`num${seasonOnly}`}>
                        {ko || r.rank == null ? dash : ordinal(r.rank)}
                      </td>
                      <td className="num dash-wide">{r.wins}</td>
                      <td className="num dash-wide">{r.draws}</td>
                      <td className="num dash-wide">{r.losses}</td>
                      <td className="num dash-wide">{ko ? dash : r.goalsFor}</td>
                      <td className="num dash-wide">{ko ? dash : r.goalsAgainst}</td>
                      <td data-label="Points" className={`num${seasonOnly}`}>
                        {ko ? dash : r.points}
                      </td>
                      <td data-label="Current Selection" className="dash-phone-only">
                        {r.currentSelection ?? "--"}
                      </td>
                      <td data-label="Team Selection" className="dash-selection">
                        <SelectionCell row={r} now={data.now} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="dashboard-section" aria-labelledby="private-heading">
        <header>
          <h2 id="private-heading">Your Private Competitions</h2>
          {/* A new player's next step is Browse competitions (above): then creating one is the quieter action. */}
          <CreatePrivateCompetition isAdmin={data.isAdmin} today={data.today} primary={registered.length > 0} />
        </header>
        {data.privateCompetitions.length === 0 ? (
          <p className="empty-state">You have not created any private competitions yet.</p>
        ) : (
          <div className="table-wrap dash-table-wrap">
            <table className="table responsive-table private-table">
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
                    <td data-label="Registered Players">{c.playerCount}</td>
                    <td data-label="Status">{c.status === "active" ? "Active" : "Inactive"}</td>
                    <td data-label="Registration Key">
                      {c.registrationKey ? (
                        <span className="private-key">
                          <code>{c.registrationKey}</code>
                          <CopyButton text={c.registrationKey} label={`Copy registration key of ${c.name}`} />
                        </span>
                      ) : (
                        dash
                      )}
                    </td>
                    <td data-label="Invite Players" className={c.registrationKey ? undefined : "dash-wide"}>
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
        )}
      </section>
    </div>
  );
}
