import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { CopyButton } from "~/components/CopyButton";
import { InviteButtons } from "~/components/InviteButtons";

const dash = "–";

interface PrivateRow {
  id: string;
  name: string;
  playerCount: number;
  status: string;
  registrationKey: string | null;
}

/** The dashboard's Your Private Competitions: each with its players, status, key (copy) and invite buttons. */
export function PrivateCompetitions({
  competitions,
  competitionsUrl,
  createButton,
}: {
  competitions: PrivateRow[];
  competitionsUrl: string;
  /** The "+ Private Competition" button and its modal. */
  createButton: ReactNode;
}) {
  return (
    <section className="dashboard-section" aria-labelledby="private-heading">
      <header>
        <h2 id="private-heading">Your Private Competitions</h2>
        {createButton}
      </header>
      {competitions.length === 0 ? (
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
              {competitions.map((c) => (
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
                      <InviteButtons competitionName={c.name} registrationKey={c.registrationKey} competitionsUrl={competitionsUrl} />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
