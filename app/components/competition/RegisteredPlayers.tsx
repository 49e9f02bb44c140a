import { Pager } from "~/components/Pager";
import { StatusBadge } from "~/components/Badges";
import type { PlayerRow } from "~/models/competition-detail.server";

interface Props {
  /** One page of the members, by username. */
  players: PlayerRow[];
  page: number;
  pageCount: number;
}

/** The Registered Players card: one page of members with their status and the match day they joined. */
export function RegisteredPlayers({ players, page, pageCount }: Props) {
  return (
    <section className="card" aria-labelledby="players-heading">
      <h2 id="players-heading">Registered Players</h2>
      {players.length === 0 ? (
        <p className="empty-state">No players have registered yet.</p>
      ) : (
        <table className="table responsive-table">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Status</th>
              <th scope="col">Joined Match Day</th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <tr key={p.userId}>
                <td data-label="Username">{p.username}</td>
                <td data-label="Status">
                  <StatusBadge status={p.membershipStatus} />
                </td>
                <td data-label="Joined Match Day">{p.joinedMatchDay ?? "--"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pageCount={pageCount} param="playersPage" label="Registered players pages" />
    </section>
  );
}
