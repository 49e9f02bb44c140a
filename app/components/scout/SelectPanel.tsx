import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
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
const updateId = (entryId: string, fixtureId: string) => `update-${entryId}-${fixtureId}`;

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
  const initial = () => {
    const values: Record<string, { home: string; away: string }> = {};
    for (const f of fixtures) {
      const p = saved(f.id);
      values[f.id] = refusal?.values[f.id] ?? { home: p ? String(p.homeGoals) : "", away: p ? String(p.awayGoals) : "" };
    }
    return values;
  };
  const [values, setValues] = useState(initial);
  // Fixtures with a saved prediction that the player opened for editing (Update Prediction).
  const [editing, setEditing] = useState<Set<string>>(() => new Set(refusal ? Object.keys(refusal.values) : []));
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

  const isEditable = (fixtureId: string) => !locked && (!saved(fixtureId) || editAll || editing.has(fixtureId));
  const anyEditable = fixtures.some((f) => isEditable(f.id));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const fixtureId = submitter?.name === "fixture" ? submitter.value : null;
    // After the save the fixture shows Update Prediction (a per-fixture save) or focus returns to the entry's heading.
    focusAfterSave = fixtureId ? updateId(entry.id, fixtureId) : (headingRef.current?.id ?? null);
  };

  const set = (fixtureId: string, side: "home" | "away", value: string) =>
    setValues((v) => ({ ...v, [fixtureId]: { ...v[fixtureId], [side]: value.replace(/[^0-9]/g, "").slice(-1) } }));

  const startEdit = (fixtureId: string) => {
    setEditing((s) => new Set(s).add(fixtureId));
    requestAnimationFrame(() => document.getElementById(inputId(entry.id, fixtureId, "home"))?.focus());
  };

  const cancel = (fixtureId: string) => {
    const p = saved(fixtureId);
    setValues((v) => ({ ...v, [fixtureId]: { home: p ? String(p.homeGoals) : "", away: p ? String(p.awayGoals) : "" } }));
    setEditing((s) => {
      const next = new Set(s);
      next.delete(fixtureId);
      return next;
    });
    requestAnimationFrame(() => document.getElementById(updateId(entry.id, fixtureId))?.focus());
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
          {/* First submit button of the form: Enter in any score saves the whole entry. */}
          {anyEditable ? (
            <button type="submit" className="btn btn-primary" disabled={savingEntry}>
              {savingEntry ? "Saving..." : "Save Entry"}
            </button>
          ) : null}
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
            const badge = p && f.status === "complete" ? predictionBadge(f.status, p.pointsAwarded) : null;
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
                    {f.status === "complete" && f.homeScore !== null ? `Final ${f.homeScore} - ${f.awayScore}` : f.kickoff}
                  </span>
                  {state === "saved" ? <span className="badge badge-success">Saved</span> : null}
                  {state === "unsaved" ? <span className="badge badge-warning">Unsaved changes</span> : null}
                  {badge ? (
                    <span className={`badge badge-${badge.tone}`}>
                      {badge.points} pts{badge.label === "Exact!" ? " · Exact!" : ""}
                    </span>
                  ) : null}
                </div>
                {locked ? null : (
                  <FixtureActions
                    entryId={entry.id}
                    fixtureId={f.id}
                    hasSaved={!!p}
                    editable={editable}
                    editAll={editAll}
                    editHref={editHref}
                    onEdit={() => startEdit(f.id)}
                    onCancel={() => cancel(f.id)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      </Form>
    </section>
  );
}

function FixtureActions({
  entryId,
  fixtureId,
  hasSaved,
  editable,
  editAll,
  editHref,
  onEdit,
  onCancel,
}: {
  entryId: string;
  fixtureId: string;
  hasSaved: boolean;
  editable: boolean;
  editAll: boolean;
  editHref: Props["editHref"];
  onEdit: () => void;
  onCancel: () => void;
}) {
  const saving = usePending("save-predictions", { name: "fixture", value: fixtureId });
  if (!editable) {
    return (
      <div className="scout-fixture-actions">
        <Link
          id={updateId(entryId, fixtureId)}
          to={`${editHref(entryId)}#fixture-${entryId}-${fixtureId}`}
          className="btn btn-secondary"
          replace
          preventScrollReset
          onClick={(e) => {
            e.preventDefault();
            onEdit();
          }}
        >
          Update Prediction
        </Link>
      </div>
    );
  }
  return (
    <div className="scout-fixture-actions">
      <button type="submit" name="fixture" value={fixtureId} className="btn btn-primary" disabled={saving}>
        {saving ? "Saving..." : "Save Prediction"}
      </button>
      {hasSaved ? (
        <Link
          to={`${editHref(editAll ? null : entryId)}#fixture-${entryId}-${fixtureId}`}
          className="btn btn-secondary"
          replace
          preventScrollReset
          onClick={(e) => {
            if (editAll) return; // without per-fixture state (?edit=), Cancel reloads the saved scores
            e.preventDefault();
            onCancel();
          }}
        >
          Cancel
        </Link>
      ) : null}
    </div>
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
  if (p.footycoachTickets === 0 && p.entries.length === 0 && !p.locked) {
    return (
      <div className="scout-select">
        {heading}
        <div className="scout-state" data-testid="scout-state">
          <h3>Ticket Required</h3>
          <p>You need a FootyCoach ticket to enter this match day. Refer a friend to earn referral tickets.</p>
          {p.referralTickets > 0 ? <RedeemForm competitionId={p.competitionId} label="Use a Referral Ticket" /> : null}
        </div>
      </div>
    );
  }
  return (
    <div className="scout-select">
      {heading}
      {p.locked ? (
        <div className="scout-state" data-testid="scout-state">
          <h3>Predictions Locked</h3>
          <p>Predictions for Match Day {p.matchDay} are locked. Your entries are shown below.</p>
        </div>
      ) : (
        <div className="scout-redeem-row">
          <p>
            {p.entries.length} of 10 entries · {tickets} {tickets === 1 ? "ticket" : "tickets"} available
          </p>
          <RedeemForm competitionId={p.competitionId} label="Redeem Ticket" />
        </div>
      )}
      {p.entries.length === 0 && p.locked ? <p className="empty-state">You have no entries for this match day.</p> : null}
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
