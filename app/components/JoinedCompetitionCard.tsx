import { Link } from "@remix-run/react";
import type { MyCompetitionCard } from "~/models/competitions.server";
import { StatusBadge, TypeBadge } from "~/components/Badges";

/** A card on My Competitions: the competition's facts, the player's pick, and where to go next. */
export function JoinedCompetitionCard({ competition: c }: { competition: MyCompetitionCard }) {
  const facts: [term: string, detail: string | number][] = [
    ["League", c.league],
    ["Season", c.season],
    ["Match Day", c.matchDay ?? "--"],
    ["Selected Team", c.currentSelection ?? "--"],
  ];
  return (
    <article className="card competition-card my-competition-card" aria-labelledby={`my-${c.id}-name`}>
      <header className="competition-card-header">
        <h2 className="competition-card-title" id={`my-${c.id}-name`}>
          {c.name}
        </h2>
        <TypeBadge type={c.type} />
      </header>
      <dl className="my-competition-facts">
        {facts.map(([term, detail]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{detail}</dd>
          </div>
        ))}
        {c.eliminated ? (
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status="Eliminated" />
            </dd>
          </div>
        ) : null}
      </dl>
      <div className="competition-card-actions">
        <Link className="btn btn-secondary" to={`/competition/${c.id}`}>
          View Competition
        </Link>
        {c.eliminated ? null : c.selectionClosed ? (
          <StatusBadge status="Selection Closed" />
        ) : (
          <Link className="btn btn-primary" to={`/select-team/${c.id}`}>
            {c.hasSelection ? "Edit Selection" : "Select Team"}
          </Link>
        )}
      </div>
    </article>
  );
}
