import { Form, Link } from "@remix-run/react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { FixtureList } from "~/components/FixtureList";
import { TeamBadge } from "~/components/TeamBadge";
import { usePending } from "~/components/usePending";
import type { groupFixtures } from "~/models/fixture-rows.server";

interface FixturesProps {
  groups: ReturnType<typeof groupFixtures>;
  /** The match day shown; not the current one: the no-JS confirm step keeps it (?md=). */
  matchDay: number;
  isCurrent: boolean;
  currentSelection: string | null;
  /** The teams the player may pick for this match day (the database's eligibility), but the one picked. */
  selectable: string[];
  /** Knockout: where each of the player's other picks and plans is ("Used on Match Day 10", "Planned for Match Day 14"). */
  usedOn: Record<string, { matchDay: number; planned: boolean }>;
  onChoose: (team: string) => void;
}

/**
 * The match day's fixtures with a button per team: choosing one opens the confirm step (a GET ?confirm= without
 * JavaScript). A team the player may not pick is disabled, with the reason said when it is another match day's pick.
 */
export function PickFixtures({ groups, matchDay, isCurrent, currentSelection, selectable, usedOn, onChoose }: FixturesProps) {
  return (
    <Form method="get" preventScrollReset replace>
      {isCurrent ? null : <input type="hidden" name="md" value={matchDay} />}
      <FixtureList
        groups={groups}
        renderTeam={(team, side, fixture) => {
          const selected = team === currentSelection;
          const enabled = selectable.includes(team);
          const used = selected ? undefined : usedOn[team];
          const noteId = `used-${fixture.id}-${side}`;
          return (
            <div className="team-cell">
              <button
                type="submit"
                name="confirm"
                value={team}
                className={`btn team-button${selected ? " is-selected" : ""}`}
                aria-pressed={selected}
                aria-describedby={used ? noteId : undefined}
                disabled={!enabled}
                onClick={(event) => {
                  event.preventDefault();
                  onChoose(team);
                }}
              >
                <TeamBadge team={team} />
                <span className="team-button-name">{team}</span>
              </button>
              {used ? (
                <span className="team-note" id={noteId}>
                  {used.planned ? "Planned for" : "Used on"} Match Day {used.matchDay}
                </span>
              ) : null}
            </div>
          );
        }}
      />
    </Form>
  );
}

/**
 * "Do you want to select X for Match Day N?": Yes posts the pick (intent=select, team; matchDay for a plan of a
 * coming match day, none for the current one, as before plans).
 */
export function ConfirmPick({
  team,
  matchDay,
  isCurrent,
  here,
  onCancel,
}: {
  team: string;
  matchDay: number;
  isCurrent: boolean;
  here: string;
  onCancel: () => void;
}) {
  const saving = usePending("select");
  return (
    <ConfirmDialog
      title="Confirm Your Selection"
      onCancel={onCancel}
      actions={
        <>
          <Link
            className="btn btn-secondary"
            to={here}
            replace
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              onCancel();
            }}
          >
            Cancel
          </Link>
          <Form method="post" action={here}>
            <input type="hidden" name="intent" value="select" />
            <input type="hidden" name="team" value={team} />
            {isCurrent ? null : <input type="hidden" name="matchDay" value={matchDay} />}
            <button className="btn btn-primary" type="submit" disabled={saving}>
              {saving ? "Saving..." : "Yes"}
            </button>
          </Form>
        </>
      }
    >
      <p>
        Do you want to select <strong>{team}</strong> for Match Day {matchDay}?
      </p>
    </ConfirmDialog>
  );
}
