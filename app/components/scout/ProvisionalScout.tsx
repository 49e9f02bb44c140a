import { ordinal } from "~/lib/ordinal";
import { PROVISIONAL_HEADING } from "~/lib/live";
import { entryNumber } from "~/lib/scout";
import type { ScoutLiveRow } from "~/models/scout.server";

/*
 * Scout "if it ended now" (decision 022): provisional points per entry and the provisional match-day board while a
 * match of the match day is in play. SQL scores them (public.live_scout_board, Scout's own points rule on the live
 * score); nothing here is a result.
 */

const NOTE = "Provisional: only final results count.";

/** The player's own entries with their provisional points (Select and My Picks tabs). */
export function ProvisionalScoutEntries({ rows }: { rows: ScoutLiveRow[] }) {
  const mine = rows.filter((r) => r.mine).sort((a, b) => (a.entryIndex ?? 0) - (b.entryIndex ?? 0));
  if (mine.length === 0) return null;
  return (
    <div className="live-panel" data-testid="scout-provisional-entries">
      <h2>
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Live</span>
      </h2>
      <ul aria-label="Provisional points per entry">
        {mine.map((r) => (
          <li key={r.entryId}>
            Entry {entryNumber(r.entryIndex ?? 0)}: {r.totalPoints} pts ({r.livePoints} from matches in play) · {ordinal(r.rank)}
          </li>
        ))}
      </ul>
      <p className="live-note">{NOTE}</p>
    </div>
  );
}

/** The provisional match-day board: the top entries and the player's own. */
export function ProvisionalScoutBoard({ rows, me }: { rows: ScoutLiveRow[]; me: string }) {
  if (rows.length === 0) return null;
  return (
    <div className="live-panel" data-testid="scout-provisional-board">
      <h2>
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Live</span>
      </h2>
      <table className="table scout-board">
        <caption className="visually-hidden">The match day leaderboard if it ended now</caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Player</th>
            <th scope="col" className="num">
              <abbr title="Total points">Pts</abbr>
            </th>
            <th scope="col" className="num">
              Exact
            </th>
            <th scope="col" className="num">
              Entry
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.entryId} className={r.userId === me ? "is-me" : undefined}>
              <td>{ordinal(r.rank)}</td>
              <th scope="row">{r.displayName}</th>
              <td className="num">{r.totalPoints}</td>
              <td className="num">{r.exactCount}</td>
              <td className="num">{entryNumber(r.entryIndex ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="live-note">{NOTE}</p>
    </div>
  );
}
