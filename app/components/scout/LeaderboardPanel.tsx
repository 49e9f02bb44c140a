import { Link } from "@remix-run/react";
import { ordinal } from "~/lib/ordinal";
import { entryNumber, PROGRESS_ROWS, progressPercent, scoutRankText, TOP_NOTE_FROM } from "~/lib/scout";
import { MatchDayPicker } from "./MatchDayPicker";
import { YouBadge } from "~/components/Badges";

export interface LeaderRow {
  rank: number;
  userId: string;
  displayName: string;
  totalPoints: number;
  exactCount: number;
  entryIndex: number | null;
}

interface Props {
  view: "matchday" | "season";
  matchDay: number;
  currentMatchDay: number;
  rows: LeaderRow[];
  /** The player's own best row with its true rank; pinned below when not among the rows shown. */
  myRow: LeaderRow | null;
  me: string;
  /** Builds this tab's URL for the other view. */
  viewHref: (view: "matchday" | "season") => string;
  keep: Readonly<Record<string, string>>;
}

function Table({
  rows,
  me,
  view,
  top,
  topExact,
  caption,
  progress,
}: {
  rows: LeaderRow[];
  me: string;
  view: Props["view"];
  top: number;
  /** The best exact count on the board: with `top`, no rank is shown until somebody has scored. */
  topExact: number;
  caption: string;
  progress: boolean;
}) {
  return (
    <table className="table scout-board">
      <caption className="visually-hidden">{caption}</caption>
      <colgroup>
        <col className="col-rank" />
        <col />
        <col className="col-num" />
        <col className="col-exact" />
        <col className="col-exact" />
      </colgroup>
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
            {view === "season" ? <abbr title="Best entry">Best</abbr> : "Entry"}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => {
          const mine = r.userId === me;
          const bar = progress && i < PROGRESS_ROWS;
          return (
            <tr key={`${r.userId}:${r.entryIndex ?? ""}:${i}`} className={mine ? "is-me" : undefined}>
              <td className="scout-rank">{scoutRankText(r.rank, top, topExact, ordinal)}</td>
              <th scope="row" className="scout-name">
                <span className="scout-name-line">
                  <span className="scout-name-text lb-username" title={r.displayName}>
                    {r.displayName}
                  </span>
                  {mine ? <YouBadge /> : null}
                </span>
                {bar ? (
                  <span className="scout-progress" aria-hidden="true" data-testid="scout-progress">
                    <span style={{ width: `${progressPercent(r.totalPoints, top)}%` }} />
                  </span>
                ) : null}
              </th>
              <td className="num">{r.totalPoints}</td>
              <td className="num">{r.exactCount}</td>
              <td className="num">{r.entryIndex === null ? "-" : entryNumber(r.entryIndex)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The Leaderboard tab: match day view (one row per entry) and season view (one row per player). */
export function LeaderboardPanel({ view, matchDay, currentMatchDay, rows, myRow, me, viewHref, keep }: Props) {
  const top = rows[0]?.totalPoints ?? 0;
  const topExact = rows.reduce((m, r) => Math.max(m, r.exactCount), 0);
  const pinned = myRow && !rows.some((r) => r.userId === me) ? myRow : null;
  const title = view === "season" ? "Season Leaderboard" : `Match Day ${matchDay} Leaderboard`;
  return (
    <div className="scout-leaderboard">
      <h2>{title}</h2>
      <div className="scout-board-controls">
        <div className="segmented" role="group" aria-label="Leaderboard view">
          <Link
            to={viewHref("matchday")}
            aria-current={view === "matchday" ? "page" : undefined}
            className={view === "matchday" ? "active" : undefined}
            replace
            preventScrollReset
          >
            Match Day
          </Link>
          <Link
            to={viewHref("season")}
            aria-current={view === "season" ? "page" : undefined}
            className={view === "season" ? "active" : undefined}
            replace
            preventScrollReset
          >
            Season
          </Link>
        </div>
        {view === "matchday" ? <MatchDayPicker current={currentMatchDay} value={matchDay} keep={keep} /> : null}
      </div>
      {rows.length === 0 ? (
        <p className="empty-state">No entries yet.</p>
      ) : (
        <>
          {top === 0 && topExact === 0 ? (
            <p className="scout-note" data-testid="scout-unranked">
              No results scored yet: every entry is level, so no rank is shown.
            </p>
          ) : null}
          {rows.length >= TOP_NOTE_FROM ? <p className="scout-note">Showing top 100 entries</p> : null}
          <Table rows={rows} me={me} view={view} top={top} topExact={topExact} caption={title} progress />
        </>
      )}
      {pinned ? (
        <section className="scout-pinned" aria-labelledby="scout-my-row">
          <h3 id="scout-my-row">Your best</h3>
          <Table rows={[pinned]} me={me} view={view} top={top} topExact={topExact} caption="Your best row" progress={false} />
        </section>
      ) : null}
    </div>
  );
}
