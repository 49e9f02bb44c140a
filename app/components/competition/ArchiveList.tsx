import { Link } from "@remix-run/react";
import { TypeBadge } from "~/components/Badges";
import { LockIcon } from "~/components/CompetitionCard";
import { Pager } from "~/components/Pager";
import { ordinal } from "~/lib/ordinal";
import { playerCount } from "~/lib/player-count";
import type { ArchivePage } from "~/models/archive.server";

/**
 * The archive (/competitions?status=ended, decision 030): the ended competitions the player can read (public ones,
 * and private ones they were in: public.in_archive), most recently ended first, with where they finished. Each card
 * opens the competition's page, which keeps its final table, champion and every match day's picks.
 */
export function ArchiveList({ archive }: { archive: ArchivePage }) {
  return (
    <div className="container competitions-page">
      <header className="page-header competitions-header">
        <h1>Ended competitions</h1>
        <Link className="btn btn-secondary" to="/competitions">
          Open competitions
        </Link>
      </header>
      {archive.competitions.length === 0 ? (
        <p className="empty-state">No ended competitions yet.</p>
      ) : (
        <ul className="archive-grid" aria-label={`${archive.total} ended competitions`}>
          {archive.competitions.map((c) => (
            <li key={c.id} className="card archive-card">
              <h2>
                <Link to={`/competition/${c.id}`}>{c.name}</Link> {c.visibility === "private" ? <LockIcon /> : null}
              </h2>
              <p className="archive-meta">
                <TypeBadge type={c.type} /> {c.league} · {c.season}
              </p>
              <p className="archive-meta">
                {playerCount(c.playerCount)} · ended on Match Day {c.lastMatchDay}
              </p>
              {c.myFinish !== null ? <p className="archive-finish">You finished {ordinal(c.myFinish)}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <Pager page={archive.page} pageCount={archive.pageCount} label="Ended competitions pages" />
    </div>
  );
}
