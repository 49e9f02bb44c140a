import { entryLabel, predictionBadge } from "~/lib/scout";
import { MatchDayPicker } from "./MatchDayPicker";

export interface PickFixture {
  id: string;
  homeTeam: string;
  awayTeam: string;
  homeScore: number | null;
  awayScore: number | null;
  status: string;
  /** Formatted on the server in the player's zone. */
  kickoff: string;
}

export interface PickEntry {
  id: string;
  entryIndex: number;
  totalPoints: number;
  exactCount: number;
  predictions: Record<string, { homeGoals: number; awayGoals: number; pointsAwarded: number | null; exact: boolean }>;
}

interface Props {
  matchDay: number;
  currentMatchDay: number;
  entries: PickEntry[];
  fixtures: PickFixture[];
  keep: Readonly<Record<string, string>>;
}

/** The My Picks tab: the player's entries of a match day, each prediction against its fixture with its badge. */
export function MyPicksPanel({ matchDay, currentMatchDay, entries, fixtures, keep }: Props) {
  return (
    <div className="scout-picks">
      <h2>My Picks - Match Day {matchDay}</h2>
      <MatchDayPicker current={currentMatchDay} value={matchDay} keep={keep} />
      {entries.length === 0 ? (
        <p className="empty-state">You have no entries for Match Day {matchDay}.</p>
      ) : (
        entries.map((e) => (
          <section key={e.id} className="scout-pick-entry" aria-labelledby={`pick-${e.id}`} data-testid={`picks-${e.entryIndex + 1}`}>
            <h3 id={`pick-${e.id}`}>
              {entryLabel(e.entryIndex)}{" "}
              <span className="scout-entry-total">
                {e.totalPoints} pts · {e.exactCount} exact
              </span>
            </h3>
            <ul className="list-plain scout-pick-list">
              {fixtures.map((f) => {
                const p = e.predictions[f.id];
                const badge = p ? predictionBadge(f.status, p.pointsAwarded) : null;
                return (
                  <li key={f.id} className="scout-pick" data-testid={`pick-${f.id}`}>
                    <span className="scout-pick-fixture">
                      {f.homeTeam} vs {f.awayTeam}
                    </span>
                    <span className="scout-pick-actual">
                      {f.status === "complete" && f.homeScore !== null ? (
                        <>
                          Final {f.homeScore} - {f.awayScore}
                        </>
                      ) : f.status === "postponed" ? (
                        "Postponed"
                      ) : (
                        <time>{f.kickoff}</time>
                      )}
                    </span>
                    <span className="scout-pick-guess">
                      {p ? (
                        <>
                          Your pick {p.homeGoals} - {p.awayGoals}
                        </>
                      ) : (
                        "No prediction"
                      )}
                    </span>
                    {badge ? (
                      <span className={`badge badge-${badge.tone}`} data-testid="pick-badge">
                        {badge.label}
                        {badge.points !== null ? ` (${badge.points})` : ""}
                      </span>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
