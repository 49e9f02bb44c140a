import { Form } from "@remix-run/react";
import { usePending } from "~/components/usePending";
import { PickedTeam, StatusBadge } from "~/components/Badges";
import type { PlayerRow } from "~/models/competition-detail.server";

interface Props {
  currentMatchDay: number;
  /** Every member with their current pick (the creator's and admins' view). */
  members: PlayerRow[];
  /** The teams with a fixture on the current match day. */
  teams: string[];
  /** The form's refusal, if the last post was a set-selection. */
  error: string | null;
}

/** The Manage Selections tab (creator and admins): set a member's pick, and every member's current pick. */
export function ManageSelectionsPanel({ currentMatchDay, members, teams, error }: Props) {
  const updating = usePending("set-selection");
  // Before the deadline a member's pick is theirs (hidden-picks rule): only members without one can be set.
  const picksHidden = members.some((p) => p.selectionHidden);
  const settable = members.filter((p) => !p.selectionHidden);
  return (
    <div>
      <h2>Manage Selections</h2>
      <p className="muted">Set a player&apos;s team for Match Day {currentMatchDay}.</p>
      {picksHidden ? (
        <p className="muted">
          Until the deadline you see who has picked, not their team, and you can set a team only for a player who has not picked yet.
        </p>
      ) : null}
      <Form method="post" className="manage-form">
        <input type="hidden" name="intent" value="set-selection" />
        <div className="field">
          <label htmlFor="manage-player">Player</label>
          <select id="manage-player" name="userId" required defaultValue="">
            <option value="" disabled>
              Select a player
            </option>
            {settable.map((p) => (
              <option key={p.userId} value={p.userId}>
                {p.username}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="manage-team">Team</label>
          <select id="manage-team" name="team" required defaultValue="">
            <option value="" disabled>
              Select a team
            </option>
            {teams.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <button className="btn btn-primary" type="submit" disabled={updating}>
          {updating ? "Updating..." : "Update Selection"}
        </button>
        {error ? (
          <div className="form-error" role="alert">
            {error}
          </div>
        ) : null}
      </Form>
      <table className="table responsive-table">
        <caption>Players and their selection for Match Day {currentMatchDay}</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">Status</th>
            <th scope="col">Current Selection</th>
          </tr>
        </thead>
        <tbody>
          {members.map((p) => (
            <tr key={p.userId}>
              <td data-label="Player">{p.username}</td>
              <td data-label="Status">
                <StatusBadge status={p.membershipStatus} />
              </td>
              <td data-label="Current Selection">
                {p.currentSelection ? (
                  <PickedTeam team={p.currentSelection} autoPicked={p.autoPicked} />
                ) : p.hasSelection ? (
                  "Picked"
                ) : (
                  "Not picked yet"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
