import { Pager } from "~/components/Pager";
import { StatusBadge } from "~/components/Badges";
import type { PlayerRow } from "~/models/competition-detail.server";
import { playerStatusLabel } from "~/lib/player-status";

interface Props {
  competition: { type: string; status: string };
  /** One page of the members, by username. */
  players: PlayerRow[];
  page: number;
  pageCount: number;
}

/** The Registered Players card: one page of members with their status and the match day they joined. */
export function RegisteredPlayers({ competition, players, page, pageCount }: Props) {
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
                  {/* The standings' words: a knockout player reads Still In, never Active. */}
                  <StatusBadge
                    status={playerStatusLabel({
                      type: competition.type,
                      competitionStatus: competition.status,
                      membershipStatus: p.membershipStatus,
                    })}
                  />
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
