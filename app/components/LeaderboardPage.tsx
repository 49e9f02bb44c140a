import { Link } from "@remix-run/react";
import type { ComponentType, ReactNode } from "react";
import { Pager } from "~/components/Pager";
import { PageLoading } from "~/components/PageLoading";
import type { LeaderboardView } from "~/lib/leaderboards";
import { YouBadge } from "~/components/Badges";

/**
 * A player's name in a compact table (.lb-compact): on phones one line ending in an ellipsis when too long; the
 * full name is its title and is read whole by screen readers. The player's own row carries the You badge.
 */
export function NameCell({ name, isMe }: { name: string; isMe: boolean }) {
  return (
    <th scope="row" className="lb-name">
      <span className="lb-name-line">
        <span className="lb-username" title={name}>
          {name}
        </span>
        {isMe ? <YouBadge /> : null}
      </span>
    </th>
  );
}

export interface StandingsTableProps<Row> {
  rows: Row[];
  me: string;
  caption: string;
}

interface Props<Row> {
  title: string;
  view: LeaderboardView<Row>;
  /** Renders the player's own row and each page of rows, so both tables look alike on one board. */
  Table: ComponentType<StandingsTableProps<Row>>;
  /** Shown between the header and the standings (the season board's champion banner). */
  children?: ReactNode;
}

/**
 * The page around a leaderboard's table, the same for knockout and season boards: heading with a link back to
 * the competition, the player's own standing (wherever they are ranked, so they need not page to find it) and
 * one page of the competition's standings with its pager.
 */
export function LeaderboardPage<Row>({ title, view, Table, children }: Props<Row>) {
  const c = view.competition;
  return (
    <div className="container leaderboard">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
          <p className="subtitle">
            {c.name} · {c.league} · {c.season} · Match Day {c.currentMatchDay}
          </p>
        </div>
        <Link className="btn btn-secondary" to={`/competition/${c.id}`}>
          View Competition
        </Link>
      </header>

      <PageLoading />

      {children}

      <section className="card leaderboard-section" aria-labelledby="your-standings">
        <h2 id="your-standings">Your Standings</h2>
        {view.mine ? <Table rows={[view.mine]} me={view.me} caption="Your standing" /> : <p className="not-found">Not found</p>}
      </section>

      <section className="card leaderboard-section" aria-labelledby="competition-standings">
        <h2 id="competition-standings">Competition Standings</h2>
        {view.rows.length === 0 ? (
          <p className="empty-state">No players have registered yet.</p>
        ) : (
          <Table rows={view.rows} me={view.me} caption={`Competition standings, page ${view.page} of ${view.pageCount}`} />
        )}
        <Pager page={view.page} pageCount={view.pageCount} label="Standings pages" />
      </section>
    </div>
  );
}
