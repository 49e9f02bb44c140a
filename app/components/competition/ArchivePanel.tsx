import { Form } from "@remix-run/react";
import { Pager } from "~/components/Pager";
import type { ArchivePickRow } from "~/lib/history";

interface Props {
  /** The match days played, oldest first. */
  matchDays: number[];
  matchDay: number;
  picks: ArchivePickRow[];
  page: number;
  pageCount: number;
  /** The URL's other parameters, kept by the match-day form. */
  tab: string;
}

/**
 * An ended competition's picks, one match day at a time (rules file: it "stays readable ... every match day's
 * picks"); the final table and the champion are the page's standings and banner. The rows are what the archive lets
 * the player read (public.revealed_picks under row-level security), by player name, a page at a time.
 */
export function ArchivePanel({ matchDays, matchDay, picks, page, pageCount, tab }: Props) {
  return (
    <section className="card archive-panel" aria-labelledby="archive-heading">
      <div className="card-header">
        <h2 id="archive-heading">Picks by match day</h2>
      </div>
      <Form method="get" className="archive-actions" preventScrollReset>
        {tab !== "overview" ? <input type="hidden" name="tab" value={tab} /> : null}
        <div className="field">
          <label htmlFor="archive-day">Match Day</label>
          <select id="archive-day" name="archiveDay" defaultValue={String(matchDay)}>
            {matchDays.map((d) => (
              <option key={d} value={d}>
                Match Day {d}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-secondary">
          Show picks
        </button>
      </Form>
      {picks.length === 0 ? (
        <p className="empty-state">No picks on Match Day {matchDay}.</p>
      ) : (
        <table className="table responsive-table archive-picks">
          <caption className="visually-hidden">Picks of Match Day {matchDay}</caption>
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Team</th>
              <th scope="col">Match</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {picks.map((p) => (
              <tr key={p.userId}>
                <td data-label="Player">{p.username}</td>
                <td data-label="Team">{p.team}</td>
                <td data-label="Match">
                  {p.match}
                  {p.score ? ` (${p.score})` : ""}
                </td>
                <td data-label="Result">{p.outcomeText}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pageCount={pageCount} param="picksPage" label="Picks pages" />
    </section>
  );
}
