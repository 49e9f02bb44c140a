import { Form, Link } from "@remix-run/react";
import { TypeBadge } from "~/components/Badges";
import { LockIcon } from "~/components/CompetitionCard";
import { Countdown } from "~/components/Countdown";
import { playerCount } from "~/lib/player-count";

interface UpcomingCard {
  id: string;
  visibility: "public" | "private";
  joined: boolean;
}

/**
 * An upcoming card's next step: Select Team once joined, else Join (a plain form to the competitions page's
 * join action that works without JavaScript; a private competition opens its key dialog there).
 */
function UpcomingAction({ c }: { c: UpcomingCard }) {
  if (c.joined) {
    return (
      <Link className="btn btn-primary btn-sm" to={`/select-team/${c.id}`}>
        Select Team
      </Link>
    );
  }
  if (c.visibility === "private") {
    return (
      <Link className="btn btn-primary btn-sm" to={`/competitions?join=${c.id}`}>
        Join
      </Link>
    );
  }
  return (
    <Form method="post" action="/competitions" className="inline-form">
      <input type="hidden" name="intent" value="join" />
      <input type="hidden" name="competitionId" value={c.id} />
      <input type="hidden" name="redirectTo" value="/dashboard" />
      <button type="submit" className="btn btn-primary btn-sm">
        Join
      </button>
    </Form>
  );
}

interface Upcoming extends UpcomingCard {
  name: string;
  type: string;
  league: string;
  playerCount: number;
  registrationDeadline: string | null;
}

/** The dashboard's Upcoming Competitions: a row of cards of competitions open for registration, soonest first. */
export function UpcomingCompetitions({ upcoming, now }: { upcoming: Upcoming[]; now: string }) {
  return (
    <section className="dashboard-section" aria-labelledby="upcoming-heading">
      <header>
        <h2 id="upcoming-heading">Upcoming Competitions</h2>
        <Link to="/competitions" className="btn btn-link">
          View all
        </Link>
      </header>
      {upcoming.length === 0 ? (
        <p className="empty-state">There are no upcoming competitions available.</p>
      ) : (
        <ul className="upcoming-list" aria-label="Upcoming competitions">
          {upcoming.map((c) => (
            <li key={c.id}>
              <article className="card upcoming-card">
                <h3>
                  <Link to={`/competition/${c.id}`}>{c.name}</Link>
                  {c.visibility === "private" ? <LockIcon /> : null}
                </h3>
                <div className="meta">
                  <span>{c.league}</span>
                  <TypeBadge type={c.type} />
                </div>
                <Countdown deadline={c.registrationDeadline} serverNow={now} announce="Registration" />
                <div className="meta">{playerCount(c.playerCount)}</div>
                <div className="upcoming-actions">
                  <UpcomingAction c={c} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
