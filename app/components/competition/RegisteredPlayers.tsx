import { useRouteLoaderData } from "@remix-run/react";
import { Pager } from "~/components/Pager";
import { StatusBadge } from "~/components/Badges";
import { NameCell } from "~/components/LeaderboardPage";
import type { PlayerRow } from "~/models/competition-detail.server";
import { playerStatusLabel } from "~/lib/player-status";

interface Props {
  competition: { type: string; status: string };
  /** One page of the members, by username. */
  players: PlayerRow[];
  page: number;
  pageCount: number;
}

/** What this table reads from the layout (the signed-in player) and the page (their membership), if there. */
interface LayoutData {
  user?: { id: string; username: string | null };
}
interface CompetitionPageData {
  isMember?: boolean;
  membershipStatus?: string | null;
}

/**
 * The Registered Players card: one page of members with their status and the match day they joined. On phones
 * one line per player (.lb-compact). The player's own row is highlighted; when they are a member but not on
 * this page, their name and status are pinned below the table.
 */
export function RegisteredPlayers({ competition, players, page, pageCount }: Props) {
  const layout = useRouteLoaderData<LayoutData>("routes/_app");
  const detail = useRouteLoaderData<CompetitionPageData>("routes/_app.competition.$competitionId");
  const me = layout?.user?.id ?? null;
  const myName = layout?.user?.username ?? null;
  const pinned = detail?.isMember && me && myName && !players.some((p) => p.userId === me) ? detail.membershipStatus : null;
  return (
    <section className="card" aria-labelledby="players-heading">
      <h2 id="players-heading">Registered Players</h2>
      {players.length === 0 ? (
        <p className="empty-state">No players have registered yet.</p>
      ) : (
        <table className="table lb-compact registered-players">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col" className="lb-status">
                Status
              </th>
              <th scope="col" className="lb-joined">
                Joined Match Day
              </th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <tr key={p.userId} className={p.userId === me ? "is-me" : undefined}>
                <NameCell name={p.username} isMe={p.userId === me} />
                <td className="lb-status">
                  {/* The standings' words: a knockout player reads Still In, never Active. */}
                  <StatusBadge
                    status={playerStatusLabel({
                      type: competition.type,
                      competitionStatus: competition.status,
                      membershipStatus: p.membershipStatus,
                    })}
                  />
                </td>
                <td className="lb-joined">{p.joinedMatchDay ?? "--"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pinned && myName ? (
        <p className="lb-pinned-me" data-testid="players-pinned">
          <span className="visually-hidden">Your registration: </span>
          <span className="lb-username" title={myName}>
            {myName}
          </span>{" "}
          <StatusBadge
            status={playerStatusLabel({ type: competition.type, competitionStatus: competition.status, membershipStatus: pinned })}
          />
        </p>
      ) : null}
      <Pager page={page} pageCount={pageCount} param="playersPage" label="Registered players pages" />
    </section>
  );
}
