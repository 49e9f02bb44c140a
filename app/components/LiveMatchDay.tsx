import { Link } from "@remix-run/react";
import {
  knockoutOutcomeText,
  liveLineText,
  pickScoreText,
  PROVISIONAL_HEADING,
  rankChange,
  stillInText,
  type LiveFixture,
  type LiveKnockoutRow,
  type LiveLine,
  type LiveSeasonRow,
  type PickShare,
} from "~/lib/live";
import { ordinal } from "~/lib/ordinal";
import { AutoPickedBadge, JokerBadge } from "~/components/Badges";

/** " Auto-picked" beside a pick the server made at the deadline. */
function AutoMark({ on }: { on: boolean }) {
  return on ? (
    <>
      {" "}
      <AutoPickedBadge />
    </>
  ) : null;
}

/*
 * The live match day's provisional view (decision 022), a small panel of its own so the pages' layouts stay as
 * they are. Clearly marked: nothing here is a result; only complete fixtures change the standings.
 */

const PROVISIONAL = "Provisional: only final results count.";

/** The competition page: the live scores, the player's own line first, how many are still in, and the picks. */
export function LiveMatchDayPanel({ line, fixtures, shares }: { line: LiveLine | null; fixtures: LiveFixture[]; shares: PickShare[] }) {
  // after the deadline, before a match is in play: the picks alone (nothing provisional yet)
  if (!line?.inPlay && fixtures.length === 0) return <PickShares shares={shares} stillIn={line?.remaining ?? null} />;
  const own = line ? liveLineText(line) : null;
  const stillIn = line ? stillInText(line) : null;
  return (
    <section className="card live-panel" aria-labelledby="live-heading" data-testid="live-panel">
      <h2 id="live-heading">
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Live</span>
      </h2>
      {own ? (
        <p className="live-own" data-testid="live-own-line">
          <strong>{own}</strong>
          <AutoMark on={line?.autoPicked === true} />
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
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Live</span>
      </h2>
      <ul className="live-lines">
        {shown.map(({ l, text }) => (
          <li key={l.competitionId} data-testid={`live-line-${l.competitionId}`}>
            <Link to={`/competition/${l.competitionId}`}>{names[l.competitionId] ?? "Competition"}</Link>: <strong>{text}</strong>
            <AutoMark on={l.autoPicked} />
            {stillInText(l) ? <span className="live-still-in"> · {stillInText(l)}</span> : null}
          </li>
        ))}
      </ul>
      <p className="live-note">{PROVISIONAL}</p>
    </section>
  );
}

/** The picks per team of the match day, after its deadline: "34% picked Arsenal" (the rule: public.match_day_pick_shares). */
export function PickShares({ shares, stillIn = null }: { shares: PickShare[]; stillIn?: number | null }) {
  if (shares.length === 0) return null;
  return (
    <section className="card live-panel" aria-labelledby="pick-shares-heading" data-testid="pick-shares">
      <h2 id="pick-shares-heading">This match day&apos;s picks ({shares[0].total})</h2>
      {stillIn !== null ? <p data-testid="pick-shares-still-in">{stillIn} still in</p> : null}
      <ul aria-label="Picks per team">
        {shares.map((s) => (
          <li key={s.team}>
            {s.share}% picked {s.team}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The knockout's provisional leaderboard (one page): who would go through, lose a life or be out; with each player's
 * lives if it ended now when the competition has more than one life (`showLives`).
 */
export function ProvisionalKnockoutTable({ rows, me, showLives = false }: { rows: LiveKnockoutRow[]; me: string; showLives?: boolean }) {
  if (rows.length === 0) return null;
  return (
    <section className="card leaderboard-section live-table" aria-labelledby="provisional-heading" data-testid="provisional-table">
      <h2 id="provisional-heading">
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Provisional</span>
      </h2>
      <table className="table lb-table lb-compact">
        <caption className="visually-hidden">Who would go through and who would be out if the match day ended now</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col" className="lb-pick">
              Selection
            </th>
            <th scope="col">If it ended now</th>
            {showLives ? <th scope="col">Lives</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.userId} className={r.userId === me ? "is-me" : undefined} data-outcome={r.outcome}>
              <th scope="row" className="lb-name">
                {r.username}
                {r.userId === me ? " (you)" : null}
              </th>
              <td className="lb-pick lb-ellipsis">
                {r.outcome === "eliminated" ? "--" : pickScoreText(r.pick)}
                <AutoMark on={r.outcome !== "eliminated" && r.autoPicked} />
              </td>
              <td>{knockoutOutcomeText(r)}</td>
              {showLives ? <td>{r.livesLeft ?? "--"}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="live-note">{PROVISIONAL}</p>
    </section>
  );
}

function RankChange({ before, now }: { before: number | null; now: number }) {
  const c = rankChange(before, now);
  return (
    <span className={`rank-change rank-${c.dir}`}>
      <span aria-hidden="true">{c.arrow}</span>
      <span className="visually-hidden">{c.text}</span>
    </span>
  );
}

/** The season's provisional table (one page) with each player's rank change. */
export function ProvisionalSeasonTable({ rows, me }: { rows: LiveSeasonRow[]; me: string }) {
  if (rows.length === 0) return null;
  return (
    <section className="card leaderboard-section live-table" aria-labelledby="provisional-heading" data-testid="provisional-table">
      <h2 id="provisional-heading">
        {PROVISIONAL_HEADING} <span className="badge badge-warning">Provisional</span>
      </h2>
      <table className="table lb-table lb-compact">
        <caption className="visually-hidden">The season table if the match day ended now, with each rank change</caption>
        <thead>
          <tr>
            <th scope="col" className="lb-rank">
              Rank
            </th>
            <th scope="col">Change</th>
            <th scope="col">Username</th>
            <th scope="col" className="lb-pick">
              Selection
            </th>
            <th scope="col">Pts</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.userId} className={r.userId === me ? "is-me" : undefined}>
              <td className="lb-rank">{ordinal(r.rank)}</td>
              <td>
                <RankChange before={r.rankBefore} now={r.rank} />
              </td>
              <th scope="row" className="lb-name">
                {r.username}
                {r.userId === me ? " (you)" : null}
              </th>
              <td className="lb-pick lb-ellipsis">
                {pickScoreText(r.pick)}
                {r.livePoints !== null ? ` (+${r.livePoints})` : null}
                <AutoMark on={r.autoPicked} />
                {r.joker ? (
                  <>
                    {" "}
                    <JokerBadge />
                  </>
                ) : null}
              </td>
              <td>{r.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="live-note">{PROVISIONAL}</p>
    </section>
  );
}
