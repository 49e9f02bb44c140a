import { Link } from "@remix-run/react";
import { PickedTeam, StatusBadge } from "~/components/Badges";
import { leaderboardPath } from "~/lib/leaderboards";
import { SeasonStatCells, SeasonStatHeadings } from "~/components/SeasonStatColumns";
import { ordinal } from "~/lib/ordinal";
import type { KnockoutStanding, SeasonStanding } from "~/models/competition-rows.server";

interface Props {
  competition: { id: string; type: "season" | "knockout" };
  /** The top of the season table (empty for a knockout). */
  seasonStandings: SeasonStanding[];
  /** The knockout's players, still in first (empty for a season). */
  knockoutStandings: KnockoutStanding[];
}

/** The Competition Standings card: the season or knockout table, with a link to the full leaderboard. */
export function CompetitionStandings({ competition, seasonStandings, knockoutStandings }: Props) {
  return (
    <section className="card" aria-labelledby="standings-heading">
      <div className="card-header">
        <h2 id="standings-heading">Competition Standings</h2>
        <Link to={leaderboardPath(competition)}>View All</Link>
      </div>
      {competition.type === "season" ? (
        <SeasonStandingsTable standings={seasonStandings} />
      ) : (
        <KnockoutStandingsTable standings={knockoutStandings} />
      )}
    </section>
  );
}

/** Rank, player and the season stats (points, goals, W/D/L). */
function SeasonStandingsTable({ standings }: { standings: SeasonStanding[] }) {
  if (standings.length === 0) return <p className="empty-state">No standings yet.</p>;
  return (
    <table className="table responsive-table standings">
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Username</th>
          <SeasonStatHeadings />
        </tr>
      </thead>
      <tbody>
        {standings.map((s) => (
          <tr key={s.userId}>
            <td data-label="Rank">{s.rank ? ordinal(s.rank) : "--"}</td>
            <td data-label="Username">{s.username}</td>
            <SeasonStatCells standing={s} labelled />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Each player's status, lives left (a competition of more than one life), the match day they went out and their
 * current pick (Hidden before the deadline; "Auto-picked" beside the server's pick).
 */
function KnockoutStandingsTable({ standings }: { standings: KnockoutStanding[] }) {
  if (standings.length === 0) return <p className="empty-state">No standings yet.</p>;
  const lives = standings.some((s) => s.livesLeft !== null);
  return (
    <table className="table responsive-table standings">
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col">Status</th>
          {lives ? <th scope="col">Lives Left</th> : null}
          <th scope="col">Elimination Match Day</th>
          <th scope="col">Current Selection</th>
        </tr>
      </thead>
      <tbody>
        {standings.map((s) => (
          <tr key={s.userId}>
            <td data-label="Player">{s.username}</td>
            <td data-label="Status">
              <StatusBadge status={s.status} />
            </td>
            {lives ? <td data-label="Lives Left">{s.livesLeft ?? "--"}</td> : null}
            <td data-label="Elimination Match Day">{s.knockedOutOn ? `Match Day ${s.knockedOutOn}` : "--"}</td>
            <td data-label="Current Selection">
              {s.status === "Eliminated" ? (
                "Eliminated"
              ) : s.currentSelection ? (
                <PickedTeam team={s.currentSelection} autoPicked={s.autoPicked} />
              ) : s.selectionHidden ? (
                <em>Hidden</em>
              ) : (
                "--"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
