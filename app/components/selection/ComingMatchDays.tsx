import { Link } from "@remix-run/react";
import { AutoPickedBadge, JokerBadge } from "~/components/Badges";

/** A coming match day as Team Selection lists it: the player's pick or plan, and when its selection closes. */
export interface ComingMatchDayRow {
  matchDay: number;
  /** The page showing this match day (the current one has no ?md=). */
  href: string;
  /** When selection closes, in the player's zone ("Sat 14 Mar, 14:00 GMT"), or "TBA". */
  closes: string;
  team: string | null;
  autoPicked: boolean;
  joker: boolean;
  /** The match day the page shows. */
  shown: boolean;
}

/**
 * The player's route ahead (rules file "Planning ahead"): every coming match day that has fixtures, with its plan
 * or "No pick yet" and its deadline; each links to its fixtures, so a plan is made or changed there.
 */
export function ComingMatchDays({ rows }: { rows: ComingMatchDayRow[] }) {
  if (rows.length === 0) return null;
  return (
    <section className="card coming-match-days" aria-labelledby="coming-heading">
      <h2 id="coming-heading">Your coming match days</h2>
      <p className="muted">Pick ahead for any of them, and change a pick until its selection closes.</p>
      <table className="table coming-table">
        <caption className="visually-hidden">Your pick or plan for each coming match day, and when its selection closes</caption>
        <thead>
          <tr>
            <th scope="col">Match Day</th>
            <th scope="col">Your pick</th>
            <th scope="col">Selection closes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.matchDay} className={r.shown ? "is-shown" : undefined} data-testid={`coming-${r.matchDay}`}>
              <th scope="row">
                <Link to={r.href} aria-current={r.shown ? "page" : undefined}>
                  Match Day {r.matchDay}
                </Link>
              </th>
              <td>
                {r.team ?? <span className="muted">No pick yet</span>}
                {r.autoPicked ? (
                  <>
                    {" "}
                    <AutoPickedBadge />
                  </>
                ) : null}
                {r.joker ? (
                  <>
                    {" "}
                    <JokerBadge />
                  </>
                ) : null}
              </td>
              <td className="coming-closes">{r.closes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** "Match Day 13" / "Match Day 15" links either side of the fixtures shown: the neighbouring coming match days. */
export function MatchDaySteps({ previous, next }: { previous: ComingMatchDayRow | null; next: ComingMatchDayRow | null }) {
  if (!previous && !next) return null;
  return (
    <nav className="match-day-steps" aria-label="Coming match days">
      {previous ? (
        <Link className="btn btn-secondary btn-sm" to={previous.href}>
          <span aria-hidden="true">←</span> Match Day {previous.matchDay}
        </Link>
      ) : null}
      {next ? (
        <Link className="btn btn-secondary btn-sm" to={next.href}>
          Match Day {next.matchDay} <span aria-hidden="true">→</span>
        </Link>
      ) : null}
    </nav>
  );
}
