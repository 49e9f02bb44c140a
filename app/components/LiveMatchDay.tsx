import { Link } from "@remix-run/react";
import { liveLineText, stillInText, type LiveFixture, type LiveLine, type PickShare } from "~/lib/live";

/*
 * The live match day's provisional view (decision 022), a small panel of its own so the pages' layouts stay as
 * they are. Clearly marked: nothing here is a result; only complete fixtures change the standings.
 */

const PROVISIONAL = "Provisional: only final results count.";

/** The competition page: the live scores, the player's own line first, how many are still in, and the picks. */
export function LiveMatchDayPanel({ line, fixtures, shares }: { line: LiveLine | null; fixtures: LiveFixture[]; shares: PickShare[] }) {
  if (!line?.inPlay && fixtures.length === 0) return null;
  const own = line ? liveLineText(line) : null;
  const stillIn = line ? stillInText(line) : null;
  return (
    <section className="card live-panel" aria-labelledby="live-heading" data-testid="live-panel">
      <h2 id="live-heading">
        Live: if it ended now <span className="badge badge-warning">Provisional</span>
      </h2>
      {own ? (
        <p className="live-own" data-testid="live-own-line">
          <strong>{own}</strong>
        </p>
      ) : null}
      {stillIn ? <p data-testid="live-still-in">{stillIn}</p> : null}
      {fixtures.length > 0 ? (
        <ul className="live-fixtures" aria-label="Live scores">
          {fixtures.map((f) => (
            <li key={f.id} data-testid={`live-fixture-${f.id}`}>
              {f.homeTeam} {f.home}–{f.away} {f.awayTeam} <span className="badge badge-muted">{f.paused ? "Half-time" : "Live"}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {shares.length > 0 ? (
        <details className="live-shares">
          <summary>This match day&apos;s picks ({shares[0].total})</summary>
          <ul aria-label="Picks per team">
            {shares.map((s) => (
              <li key={s.team}>
                {s.share}% picked {s.team}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <p className="live-note">{PROVISIONAL}</p>
    </section>
  );
}

/** The dashboard: one provisional line per competition being played. */
export function DashboardLiveLines({ lines, names }: { lines: LiveLine[]; names: Record<string, string> }) {
  const shown = lines
    .filter((l) => l.inPlay)
    .map((l) => ({ l, text: liveLineText(l) }))
    .filter((x) => x.text);
  if (shown.length === 0) return null;
  return (
    <section className="card live-panel" aria-labelledby="live-dashboard-heading" data-testid="live-panel">
      <h2 id="live-dashboard-heading">
        Live: if it ended now <span className="badge badge-warning">Provisional</span>
      </h2>
      <ul className="live-lines">
        {shown.map(({ l, text }) => (
          <li key={l.competitionId} data-testid={`live-line-${l.competitionId}`}>
            <Link to={`/competition/${l.competitionId}`}>{names[l.competitionId] ?? "Competition"}</Link>: <strong>{text}</strong>
            {stillInText(l) ? <span className="live-still-in"> · {stillInText(l)}</span> : null}
          </li>
        ))}
      </ul>
      <p className="live-note">{PROVISIONAL}</p>
    </section>
  );
}
