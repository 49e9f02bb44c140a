import { AutoPickedBadge } from "~/components/Badges";

/** One of the player's own picks as the My Selections table shows it (the loader formats the kickoff). */
export interface MySelectionRow {
  matchDay: number;
  team: string;
  /** The server's pick at the deadline (Missed pick: Auto-pick). */
  autoPicked: boolean;
  home: string;
  away: string;
  /** "2 - 1" once the fixture is complete, else null. */
  score: string | null;
  kickoff: string;
  postponed: boolean;
}

/** The My Selections tab: the player's pick on each match day with its fixture and result or kickoff. */
export function MySelectionsPanel({ selections }: { selections: MySelectionRow[] }) {
  return (
    <div>
      <h2>My Selections</h2>
      {selections.length === 0 ? (
        <p className="empty-state">You have not selected a team yet.</p>
      ) : (
        <table className="table responsive-table">
          <thead>
            <tr>
              <th scope="col">Match Day</th>
              <th scope="col">Team</th>
              <th scope="col">Fixture</th>
              <th scope="col">Result / Kickoff</th>
            </tr>
          </thead>
          <tbody>
            {selections.map((s) => (
              <tr key={s.matchDay}>
                <td data-label="Match Day">{s.matchDay}</td>
                <td data-label="Team">
                  <strong>{s.team}</strong>
                  {s.autoPicked ? (
                    <>
                      {" "}
                      <AutoPickedBadge />
                    </>
                  ) : null}
                </td>
                <td data-label="Fixture">
                  {s.home} vs {s.away}
                </td>
                <td data-label="Result / Kickoff">{s.score ?? (s.postponed ? "Postponed" : s.kickoff)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
