import { Link } from "@remix-run/react";
import { PickedTeam, StatusBadge } from "~/components/Badges";
import { Countdown } from "~/components/Countdown";
import { typeLabel } from "~/lib/competition-options";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { ordinal } from "~/lib/ordinal";
import { livesLeftText } from "~/lib/player-status";
import type { RegisteredCompetition, selectionAction } from "~/models/dashboard.server";

/** A registered competition as the dashboard's loader hands it on: its next step, the player's status word. */
export type DashboardRow = RegisteredCompetition & { action: ReturnType<typeof selectionAction>; status: string; missedPick: boolean };

const dash = "–";

/** The row's next step: Select / Edit Team with the time left and what a missed pick means, or the badge. */
function SelectionCell({ row, now }: { row: DashboardRow; now: string }) {
  const a = row.action;
  const missed = { livesLeft: row.livesLeft };
  // The pick the server made at the deadline is named here on wide screens (phones show it in Current Selection).
  const autoPick =
    row.autoPicked && row.currentSelection ? (
      <p className="dash-wide dash-auto-pick">
        <PickedTeam team={row.currentSelection} autoPicked />
      </p>
    ) : null;
  if (a.kind === "badge") {
    return (
      <div className="selection-cell">
        <StatusBadge status={a.label} />
        {autoPick}
        {row.missedPick ? <p className="deadline-missed">{missedPickOutcome(row.type, row.currentMatchDay, missed)}</p> : null}
      </div>
    );
  }
  return (
    <div className="selection-cell">
      <Link className="btn btn-primary btn-sm" to={`/select-team/${row.id}`}>
        {a.kind === "edit" ? "Edit Team" : "Select Team"}
      </Link>
      {autoPick}
      <Countdown deadline={row.selectionDeadline} serverNow={now} caption={SELECTION_CAPTION} />
      {a.kind === "select" ? <p className="deadline-consequence">{missedPickConsequence(row.type, missed)}</p> : null}
    </div>
  );
}

/**
 * The dashboard's Registered Competitions: one markup for every screen, a table on desktop and each row a card on
 * phones (responsive-table). Only the phone card shows Current Selection; the win, draw, loss and goal columns are
 * left out there. A knockout of more than one life shows the player's lives left beside their status.
 */
export function RegisteredCompetitions({ rows, now }: { rows: DashboardRow[]; now: string }) {
  return (
    <section className="dashboard-section" aria-labelledby="registered-heading">
      <header>
        <h2 id="registered-heading">Registered Competitions</h2>
      </header>
      {rows.length === 0 ? (
        <div className="empty-state next-steps">
          <p>You have not joined any competitions yet.</p>
          <Link to="/competitions" className="btn btn-primary">
            Browse competitions
          </Link>
        </div>
      ) : (
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
              {rows.map((r) => {
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
                      {r.livesLeft !== null && r.membershipStatus !== "eliminated" ? (
                        <span className="dash-lives" data-testid={`lives-left-${r.id}`}>
                          {livesLeftText(r.livesLeft)}
                        </span>
                      ) : null}
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
                      {r.currentSelection ? <PickedTeam team={r.currentSelection} autoPicked={r.autoPicked} /> : "--"}
                    </td>
                    <td data-label="Team Selection" className="dash-selection">
                      <SelectionCell row={r} now={now} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
