import { capitalise } from "~/lib/capitalise";
import { typeLabel } from "~/lib/competition-options";

/**
 * The badges several pages show, with one colour per kind wherever they appear (a Knockout badge, an
 * Eliminated badge or the You tag looks the same on every page). Pages use these instead of picking a
 * badge-* class themselves. Badges shown on one page only (Saved, Published, a Scout result) keep theirs.
 */

/** Competition types: a colour each, none shared with a status, so a type is never read as a state. */
const TYPE_TONES: Record<string, string> = {
  knockout: "badge-knockout",
  season: "badge-season",
  scout: "badge-scout",
};

export function TypeBadge({ type }: { type: string }) {
  return <span className={`badge ${TYPE_TONES[type] ?? "badge-muted"}`}>{typeLabel(type)}</span>;
}

/**
 * States, keyed by their lower-case words: a player's membership (active, eliminated, completed, and the
 * knockout board's Still In and Winner), whether a pick can still be made (Selection Closed, Closed) and a
 * fixture's (Postponed). Good states green, out red, finished or unavailable grey, held up amber.
 */
const STATUS_TONES: Record<string, string> = {
  active: "badge-success",
  "still in": "badge-success",
  winner: "badge-info",
  eliminated: "badge-danger",
  completed: "badge-muted",
  closed: "badge-muted",
  "selection closed": "badge-muted",
  postponed: "badge-warning",
};

/** A state as its badge: "active" shows as Active; an unknown state is grey. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_TONES[status.toLowerCase()] ?? "badge-muted"}`}>{capitalise(status)}</span>;
}

/** Marks the signed-in player's own row on every leaderboard. */
export function YouBadge() {
  return <span className="badge badge-you">You</span>;
}

/** Beside a team the server picked for the player at the deadline (the organiser's "Missed pick: Auto-pick"). */
export function AutoPickedBadge() {
  return <span className="badge badge-info">Auto-picked</span>;
}

/** Beside the match day a season player played their joker on (its points count double). */
export function JokerBadge() {
  return <span className="badge badge-warning">Joker</span>;
}

/** A pick as every page shows it: the team, and "Auto-picked" beside it when the server made it. */
export function PickedTeam({ team, autoPicked }: { team: string; autoPicked: boolean }) {
  return (
    <>
      {team}
      {autoPicked ? (
        <>
          {" "}
          <AutoPickedBadge />
        </>
      ) : null}
    </>
  );
}
