import { Form, Link } from "@remix-run/react";
import { ClearLiveScoreForm, LiveScoreForm } from "~/components/admin/LiveScoreForm";
import { useId } from "react";
import { SelectField } from "~/components/Field";
import { usePending } from "~/components/usePending";
import { ADMIN_PATHS } from "./sections";
import { CREATE_LEAGUES, CREATE_SEASONS } from "~/lib/competition-options";
// The loader hands loadResults' view to this section unchanged, so its types are the props' types.
import type { AdminFixture, ResultChange, ResultsView } from "~/models/admin-results.server";
import { StatusBadge } from "~/components/Badges";

interface Props {
  results: ResultsView;
  /** The fixture unlocked by Edit (?edit=<id>). */
  editId: string | null;
  /** The current results URL (without edit): where saves return to. */
  here: string;
  /** Where the fixtures' forms post: this page with its current query (Edit included, so a refused save stays unlocked). */
  action: string;
  /** An inline error for one fixture (from the action, shown without JavaScript too). */
  rowError: { fixtureId: string; message: string } | null;
}

function withParam(here: string, key: string, value: string | null) {
  const url = new URL(here, "http://x");
  if (value === null) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  return url.pathname + url.search;
}

interface ScoreInputProps {
  id: string;
  name: "homeScore" | "awayScore";
  team: string;
  score: AdminFixture["homeScore"];
  /** A saved result stays read-only until Edit unlocks it. */
  locked: boolean;
  /** A postponed fixture takes no score. */
  postponed: boolean;
}

/** One side's score in a fixture's result form (whole numbers 0 to 30, spec part 2 §5). */
function ScoreInput({ id, name, team, score, locked, postponed }: ScoreInputProps) {
  return (
    <input
      id={id}
      name={name}
      className="score-input"
      type="number"
      inputMode="numeric"
      min={0}
      max={30}
      step={1}
      required
      aria-label={`${team} score`}
      defaultValue={score ?? ""}
      readOnly={locked}
      aria-readonly={locked || undefined}
      disabled={postponed}
    />
  );
}

const SOURCE_NAMES: Record<ResultChange["source"], string> = { admin: "admin panel", csv: "CSV upload", feed: "data feed" };

/** The last change of the fixture's result (every change is kept; the count says how many). */
function LastChange({ change }: { change: ResultChange }) {
  const who = change.by ? ` by ${change.by}` : "";
  return (
    <p className="admin-fixture-history">
      {change.from === "no result" ? `Result ${change.to}` : `Changed from ${change.from} to ${change.to}`} ({SOURCE_NAMES[change.source]}
      {who}), <time dateTime={change.at}>{change.atText}</time>
      {change.reason ? `: “${change.reason}”` : ""}
      {change.count > 1 ? ` · ${change.count} changes` : ""}
    </p>
  );
}

interface FixtureRowProps {
  fixture: AdminFixture;
  /** Unlocked by Edit (?edit=<id>). */
  editing: boolean;
  here: string;
  action: string;
  error: string | null;
}

/** One fixture: its score form, Save / Edit / Cancel, Postpone / Undo postpone and its inline error. */
function FixtureRow({ fixture: f, editing, here, action, error }: FixtureRowProps) {
  const hasResult = f.homeScore !== null && f.awayScore !== null;
  const postponed = f.status === "postponed";
  const locked = hasResult && !editing;
  const saving = usePending("save-result", { name: "fixtureId", value: f.id });
  const postponing = usePending("postpone", { name: "fixtureId", value: f.id });
  const formId = `result-${f.id}`;
  return (
    <li className="admin-fixture card" data-testid={`fixture-${f.id}`} aria-label={`${f.homeTeam} v ${f.awayTeam}`}>
      <div className="admin-fixture-meta">
        <time dateTime={f.kickoffTime}>{f.kickoffText}</time>
        {postponed ? (
          <StatusBadge status="Postponed" />
        ) : hasResult ? (
          <span className="badge badge-success">{locked ? "Result saved" : "Editing"}</span>
        ) : f.live ? (
          <span className="badge badge-warning">
            {f.live.status === "PAUSED" ? "Half-time" : "Live"} {f.live.home}–{f.live.away}
          </span>
        ) : (
          <span className="badge badge-muted">Pending</span>
        )}
      </div>
      <Form method="post" action={action} id={formId} className="admin-score-form">
        <input type="hidden" name="intent" value="save-result" />
        <input type="hidden" name="fixtureId" value={f.id} />
        <input type="hidden" name="returnTo" value={here} />
        <label className="admin-team home" htmlFor={`${formId}-home`}>
          {f.homeTeam}
        </label>
        <ScoreInput
          key={`h-${f.id}-${f.homeScore}-${locked}`}
          id={`${formId}-home`}
          name="homeScore"
          team={f.homeTeam}
          score={f.homeScore}
          locked={locked}
          postponed={postponed}
        />
        <span aria-hidden="true" className="score-sep">
          –
        </span>
        <ScoreInput
          key={`a-${f.id}-${f.awayScore}-${locked}`}
          id={`${formId}-away`}
          name="awayScore"
          team={f.awayTeam}
          score={f.awayScore}
          locked={locked}
          postponed={postponed}
        />
        <label className="admin-team away" htmlFor={`${formId}-away`}>
          {f.awayTeam}
        </label>
        {hasResult && !locked ? (
          // Correcting a saved result: the server refuses it without a reason ("A reason is required to correct a result.").
          <div className="field admin-reason">
            <label htmlFor={`${formId}-reason`}>Reason</label>
            <input id={`${formId}-reason`} name="reason" type="text" required maxLength={500} autoComplete="off" />
          </div>
        ) : null}
      </Form>
      <div className="admin-fixture-actions">
        {postponed ? null : locked ? (
          <Link
            to={withParam(here, "edit", f.id)}
            className="btn btn-secondary btn-sm"
            preventScrollReset
            replace
            aria-label={`Edit ${f.homeTeam} v ${f.awayTeam}`}
          >
            Edit
          </Link>
        ) : (
          <>
            <button
              type="submit"
              form={formId}
              className="btn btn-primary btn-sm"
              disabled={saving}
              aria-label={`Save ${f.homeTeam} v ${f.awayTeam}`}
            >
              {saving ? "Saving..." : "Save"}
            </button>
            {hasResult ? (
              <Link to={here} className="btn btn-link btn-sm" preventScrollReset replace>
                Cancel
              </Link>
            ) : null}
          </>
        )}
        {postponed || !hasResult ? (
          <Form method="post" action={action} className="inline-form">
            <input type="hidden" name="intent" value="postpone" />
            <input type="hidden" name="fixtureId" value={f.id} />
            <input type="hidden" name="postponed" value={postponed ? "false" : "true"} />
            <input type="hidden" name="returnTo" value={here} />
            <button type="submit" className="btn btn-secondary btn-sm" disabled={postponing}>
              {postponing ? "Saving..." : postponed ? "Undo postpone" : "Postpone"}
            </button>
          </Form>
        ) : null}
      </div>
      {!hasResult && !postponed ? (
        <div className="admin-live">
          <LiveScoreForm fixture={f} here={here} action={action} />
          <ClearLiveScoreForm fixture={f} here={here} action={action} />
        </div>
      ) : null}
      {f.lastChange ? <LastChange change={f.lastChange} /> : null}
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </li>
  );
}

/** Results: league / season / match day / team picker and one score form per fixture (spec part 2 §2). */
export function ResultsSection({ results, editId, here, action, rowError }: Props) {
  const pickerId = useId();
  const matchDays = Array.from({ length: results.totalMatchDays }, (_, i) => i + 1);
  const { fixtures, team } = results;

  return (
    <section aria-labelledby="results-title" className="admin-section">
      <h2 id="results-title">Results</h2>
      <Form method="get" action={ADMIN_PATHS.results} className="admin-filters card" aria-label="Choose fixtures">
        <SelectField id={`${pickerId}-league`} label="League" name="league" defaultValue={results.league} options={CREATE_LEAGUES} />
        <SelectField id={`${pickerId}-season`} label="Season" name="season" defaultValue={results.season} options={CREATE_SEASONS} />
        <SelectField
          id={`${pickerId}-md`}
          label="Match Day"
          name="md"
          defaultValue={String(results.matchDay)}
          options={matchDays}
          key={`${results.league}|${results.season}|${results.matchDay}`}
        />
        <div className="field">
          <label htmlFor={`${pickerId}-team`}>Team</label>
          <input
            id={`${pickerId}-team`}
            name="team"
            type="search"
            defaultValue={team}
            maxLength={60}
            list={`${pickerId}-teams`}
            placeholder="All teams"
            autoComplete="off"
          />
          <datalist id={`${pickerId}-teams`}>
            {results.teams.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="admin-filter-buttons">
          <button type="submit" className="btn btn-secondary">
            Show Fixtures
          </button>
        </div>
      </Form>

      <h3 className="admin-subtitle">
        {results.league} {results.season}, Match Day {results.matchDay}
      </h3>

      {fixtures.length === 0 ? (
        <p className="empty-state">{team ? `No fixtures available for ${team}.` : "No fixtures available for this match day."}</p>
      ) : (
        <ul className="admin-fixtures" aria-label="Fixtures">
          {fixtures.map((f) => (
            <FixtureRow
              key={f.id}
              fixture={f}
              editing={editId === f.id}
              here={here}
              action={action}
              error={rowError?.fixtureId === f.id ? rowError.message : null}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
