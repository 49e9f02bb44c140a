import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { usePending } from "~/components/usePending";
import { entryLabel, predictionBadge } from "~/lib/scout";
import type { PickEntry, PickFixture } from "./MyPicksPanel";

/** A refused save, echoed by the action so the entry shows it in place (without JavaScript too). */
export type SaveRefusal = {
  intent: "save-predictions";
  entryId: string;
  fixtureId: string | null;
  message: string;
  values: Record<string, { home: string; away: string }>;
};

interface Props {
  competitionId: string;
  matchDay: number;
  locked: boolean;
  hasFixtures: boolean;
  footycoachTickets: number;
  referralTickets: number;
  entries: PickEntry[];
  fixtures: PickFixture[];
  /** The entry whose saved predictions are editable without JavaScript (?edit=). */
  editEntryId: string | null;
  /** Builds this tab's URL with or without ?edit=. */
  editHref: (entryId: string | null) => string;
  refusal: SaveRefusal | null;
}

/** Where focus goes back to after a save re-renders the entry (kept across the entry's remount). */
let focusAfterSave: string | null = null;

const inputId = (entryId: string, fixtureId: string, side: "home" | "away") => `score-${entryId}-${fixtureId}-${side}`;
const updateId = (entryId: string) => `update-${entryId}`;

function RedeemForm({ competitionId, label }: { competitionId: string; label: string }) {
  const pending = usePending("redeem");
  return (
    <Form method="post" className="scout-redeem" preventScrollReset>
      <input type="hidden" name="intent" value="redeem" />
      <input type="hidden" name="competitionId" value={competitionId} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Redeeming..." : label}
      </button>
    </Form>
  );
}

function EntryForm({
  competitionId,
  entry,
  fixtures,
  locked,
  editAll,
  editHref,
  refusal,
}: {
  competitionId: string;
  entry: PickEntry;
  fixtures: PickFixture[];
  locked: boolean;
  editAll: boolean;
  editHref: Props["editHref"];
  refusal: SaveRefusal | null;
}) {
  const saved = (fixtureId: string) => entry.predictions[fixtureId];
  const savedValues = () => {
    const values: Record<string, { home: string; away: string }> = {};
    for (const f of fixtures) {
      const p = saved(f.id);
      values[f.id] = { home: p ? String(p.homeGoals) : "", away: p ? String(p.awayGoals) : "" };
    }
    return values;
  };
  const [values, setValues] = useState(() => ({ ...savedValues(), ...(refusal?.values ?? {}) }));
  // The whole entry opened for editing (Update Prediction; ?edit= without JavaScript, or a refused save).
  const [editing, setEditing] = useState<boolean>(() => editAll || refusal !== null);
  const savingEntry = usePending("save-predictions", { name: "entryId", value: entry.id });
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!focusAfterSave) return;
    const target = document.getElementById(focusAfterSave);
    if (target) {
      target.focus();
      focusAfterSave = null;
    }
  }, []);

  const hasSaved = fixtures.some((f) => saved(f.id));
  const isEditable = (fixtureId: string) => !locked && (!saved(fixtureId) || editing);
  const anyEditable = fixtures.some((f) => isEditable(f.id));

  // After the save focus returns to the entry's heading (the entry re-renders with its saved scores).
  const onSubmit = () => {
    focusAfterSave = headingRef.current?.id ?? null;
  };

  const set = (fixtureId: string, side: "home" | "away", value: string) =>
    setValues((v) => ({ ...v, [fixtureId]: { ...v[fixtureId], [side]: value.replace(/[^0-9]/g, "").slice(-1) } }));

  const startEdit = () => {
    setEditing(true);
    const first = fixtures.find((f) => saved(f.id));
    if (first) requestAnimationFrame(() => document.getElementById(inputId(entry.id, first.id, "home"))?.focus());
  };

  const cancel = () => {
    setValues(savedValues());
    setEditing(false);
    requestAnimationFrame(() => document.getElementById(updateId(entry.id))?.focus());
  };

  const label = entryLabel(entry.entryIndex);
  const headingId = `entry-${entry.id}`;
  return (
    <section className="card scout-entry" aria-labelledby={headingId} data-testid={`entry-${entry.entryIndex + 1}`}>
      <Form method="post" preventScrollReset onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="save-predictions" />
        <input type="hidden" name="competitionId" value={competitionId} />
        <input type="hidden" name="entryId" value={entry.id} />
        <div className="scout-entry-head">
          <h3 id={headingId} ref={headingRef} tabIndex={-1}>
            {label}
            {entry.totalPoints > 0 || entry.exactCount > 0 ? (
              <span className="scout-entry-total">
                {" "}
                {entry.totalPoints} pts · {entry.exactCount} exact
              </span>
            ) : null}
          </h3>
        </div>
        {refusal ? (
          <p className="alert alert-error" role="alert">
            {refusal.message}
          </p>
        ) : null}
        <ul className="list-plain scout-fixtures">
          {fixtures.map((f) => {
            const p = saved(f.id);
            const editable = isEditable(f.id);
            const v = values[f.id] ?? { home: "", away: "" };
            const changed = p ? v.home !== String(p.homeGoals) || v.away !== String(p.awayGoals) : v.home !== "" || v.away !== "";
            const state = p && !changed ? "saved" : changed ? "unsaved" : "empty";
            const badge = p && f.status !== "pending" ? predictionBadge(f.status, p.pointsAwarded) : null;
            const invalid = refusal && (refusal.fixtureId === null || refusal.fixtureId === f.id) ? true : undefined;
            return (
              <li key={f.id} id={`fixture-${entry.id}-${f.id}`} className={`scout-fixture is-${state}`} data-testid={`fixture-${f.id}`}>
                <div className="scout-fixture-teams">
                  <label htmlFor={inputId(entry.id, f.id, "home")} className="scout-team">
                    {f.homeTeam}
                    <span className="visually-hidden"> score, {label}</span>
                  </label>
                  <input
                    id={inputId(entry.id, f.id, "home")}
                    name={`home.${f.id}`}
                    className="scout-score"
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]"
                    maxLength={1}
                    autoComplete="off"
                    value={v.home}
                    readOnly={!editable}
                    aria-invalid={invalid}
                    onChange={(e) => set(f.id, "home", e.target.value)}
                  />
                  <span aria-hidden="true">-</span>
                  <input
                    id={inputId(entry.id, f.id, "away")}
                    name={`away.${f.id}`}
                    className="scout-score"
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]"
                    maxLength={1}
                    autoComplete="off"
                    value={v.away}
                    readOnly={!editable}
                    aria-invalid={invalid}
                    onChange={(e) => set(f.id, "away", e.target.value)}
                  />
                  <label htmlFor={inputId(entry.id, f.id, "away")} className="scout-team">
                    {f.awayTeam}
                    <span className="visually-hidden"> score, {label}</span>
                  </label>
                </div>
                <div className="scout-fixture-meta">
                  <span className="scout-kickoff">
                    {f.status === "complete" && f.homeScore !== null
                      ? `Final ${f.homeScore} - ${f.awayScore}`
                      : f.status === "postponed"
                        ? "Postponed"
                        : f.kickoff}
                  </span>
                  {state === "saved" ? <span className="badge badge-success">Saved</span> : null}
                  {state === "unsaved" ? <span className="badge badge-warning">Unsaved changes</span> : null}
                  {badge ? (
                    <span className={`badge badge-${badge.tone}`}>
                      {badge.points === null ? badge.label : `${badge.points} pts${badge.label === "Exact!" ? " · Exact!" : ""}`}
                    </span>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {locked ? null : (
          <div className="scout-entry-actions">
            {/* The entry's one submit button: Enter in any score saves the entry too. */}
            {anyEditable ? (
              <button type="submit" className="btn btn-primary" disabled={savingEntry}>
                {savingEntry ? "Saving..." : "Save Entry"}
              </button>
            ) : null}
            {hasSaved && !editing ? (
              <Link
                id={updateId(entry.id)}
                to={`${editHref(entry.id)}#${headingId}`}
                className="btn btn-secondary"
                replace
                preventScrollReset
                onClick={(e) => {
                  e.preventDefault();
                  startEdit();
                }}
              >
                Update Prediction
              </Link>
            ) : null}
            {hasSaved && editing ? (
              <Link
                to={`${editHref(null)}#${headingId}`}
                className="btn btn-secondary"
                replace
                preventScrollReset
                onClick={(e) => {
                  if (editAll) return; // opened by ?edit=: Cancel reloads the saved scores without it
                  e.preventDefault();
                  cancel();
                }}
              >
                Cancel
              </Link>
            ) : null}
          </div>
        )}
      </Form>
    </section>
  );
}

/** The match day's fixtures, read-only: what an entry will predict, shown before a ticket is redeemed. */
function FixturePreview({ fixtures }: { fixtures: PickFixture[] }) {
  return (
    <section className="scout-preview" aria-labelledby="scout-preview-heading" data-testid="scout-preview">
      <h3 id="scout-preview-heading">This match day&apos;s fixtures</h3>
      <ul className="list-plain">
        {fixtures.map((f) => (
          <li key={f.id}>
            <span className="scout-preview-teams">
              {f.homeTeam} vs {f.awayTeam}
            </span>
            <span className="scout-kickoff">{f.status === "postponed" ? "Postponed" : f.kickoff}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How to get a ticket (game rules): one FootyCoach ticket per match day, and referral tickets. */
function HowToGetTicket({ matchDay }: { matchDay: number }) {
  return (
    <p>
      Every match day brings one FootyCoach ticket for this competition: your next one comes for Match Day {matchDay + 1}. Referral tickets
      are earned one per referred friend, never expire and work on any Scout competition: share your referral code from your{" "}
      <Link to="/profile">profile</Link>.
    </p>
  );
}

/** The Select tab: the lock, Ticket Required and No Fixtures states, else the entries with their score inputs. */
export function SelectPanel(p: Props) {
  const tickets = p.footycoachTickets + p.referralTickets;
  const heading = <h2>Match Day {p.matchDay} Predictions</h2>;
  if (!p.hasFixtures) {
    return (
      <div className="scout-select">
        {heading}
        <div className="scout-state" data-testid="scout-state">
          <h3>No Fixtures Available</h3>
          <p>No fixtures available for this match day.</p>
        </div>
      </div>
    );
  }
  const full = p.entries.length >= 10;
  return (
    <div className="scout-select">
      {heading}
      {p.locked ? (
        <div className="scout-state" data-testid="scout-state">
          <h3>Predictions Locked</h3>
          <p>Predictions for Match Day {p.matchDay} are locked. Your entries are shown below.</p>
        </div>
      ) : tickets === 0 || (p.footycoachTickets === 0 && p.entries.length === 0) ? (
        <div className="scout-state" data-testid="scout-state">
          <h3>{p.entries.length === 0 ? "Ticket Required" : "No tickets left"}</h3>
          <HowToGetTicket matchDay={p.matchDay} />
          {tickets > 0 && !full ? <RedeemForm competitionId={p.competitionId} label="Use a Referral Ticket" /> : null}
        </div>
      ) : (
        <div className="scout-redeem-row">
          <p>
            {p.entries.length} of 10 entries · {tickets} {tickets === 1 ? "ticket" : "tickets"} available
          </p>
          {full ? null : <RedeemForm competitionId={p.competitionId} label="Redeem Ticket" />}
        </div>
      )}
      {p.entries.length === 0 && p.locked ? <p className="empty-state">You have no entries for this match day.</p> : null}
      {p.entries.length === 0 ? <FixturePreview fixtures={p.fixtures} /> : null}
      {p.entries.map((e) => (
        <EntryForm
          key={`${e.id}:${JSON.stringify(e.predictions)}`}
          competitionId={p.competitionId}
          entry={e}
          fixtures={p.fixtures}
          locked={p.locked}
          editAll={p.editEntryId === e.id}
          editHref={p.editHref}
          refusal={p.refusal?.entryId === e.id ? p.refusal : null}
        />
      ))}
    </div>
  );
}
