import { Form, Link, useNavigate } from "@remix-run/react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { Field } from "~/components/Field";
import { usePending } from "~/components/usePending";
import { trackEvent } from "~/lib/analytics.client";
import { capitalise } from "~/lib/capitalise";
import type { CompetitionInfo } from "~/models/competition-rows.server";
import { StatusBadge } from "~/components/Badges";
import { Countdown } from "~/components/Countdown";
import { ordinal } from "~/lib/ordinal";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { PickedTeam } from "~/components/Badges";
import { RulesPanel, type RulesRefusal } from "~/components/competition/RulesPanel";

interface Props {
  competition: CompetitionInfo;
  currentSelection: string | null;
  /** The current selection is the server's auto-pick. */
  currentAutoPicked: boolean;
  isMember: boolean;
  closed: boolean;
  eliminated: boolean;
  canRegister: boolean;
  canUnregister: boolean;
  canSelect: boolean;
  /** The register or unregister form's refusal, if the last post was one. */
  error: string | null;
  /** The ?confirm=unregister step: the dialog asking before the membership is deleted. */
  confirmUnregister: boolean;
  /** The player's own standing (members only): status in the standings' words, season rank and points. */
  me: { status: string | null; rank: number | null; points: number; showDeadline: boolean; livesLeft: number | null } | null;
  /** The server's clock (ISO), for the countdown. */
  now: string;
  /** The deadline passed without a pick from this active member: say what follows. */
  missedPick: boolean;
  /** The Rules panel: who may change the rules, until when, and the last refused change. */
  rules: { canChange: boolean; closesAt: string | null; refusal: RulesRefusal | null };
}

/** The Overview tab: the competition's state and the player's actions (register, unregister, pick a team). */
export function OverviewPanel({
  competition: c,
  currentSelection,
  currentAutoPicked,
  isMember,
  closed,
  eliminated,
  canRegister,
  canUnregister,
  canSelect,
  error,
  confirmUnregister,
  me,
  now,
  missedPick,
  rules,
}: Props) {
  const registering = usePending("register");
  const unregistering = usePending("unregister");
  const navigate = useNavigate();
  const here = `/competition/${c.id}`;
  const missed = { missedPick: c.rules.missedPick, livesLeft: me?.livesLeft ?? null };
  return (
    <>
      <dl className="kv">
        <dt>Created By</dt>
        <dd>{c.createdByUsername ?? "--"}</dd>
        <dt>Current Match Day</dt>
        <dd>{c.currentMatchDay}</dd>
        <dt>Status</dt>
        <dd>{capitalise(c.status)}</dd>
        <dt>Registration</dt>
        <dd>{capitalise(c.registrationStatus)}</dd>
        <dt>Current Selection</dt>
        <dd data-testid="current-selection">
          {currentSelection ? <PickedTeam team={currentSelection} autoPicked={currentAutoPicked} /> : "--"}
        </dd>
        {me?.status ? (
          <>
            <dt>Your Status</dt>
            <dd data-testid="my-status">
              <StatusBadge status={me.status} />
            </dd>
          </>
        ) : null}
        {me && me.livesLeft !== null ? (
          <>
            <dt>Lives Left</dt>
            <dd data-testid="my-lives">{me.livesLeft}</dd>
          </>
        ) : null}
        {me && c.type === "season" ? (
          <>
            <dt>Your Rank</dt>
            <dd data-testid="my-rank">{me.rank ? ordinal(me.rank) : "--"}</dd>
            <dt>Your Points</dt>
            <dd data-testid="my-points">{me.points}</dd>
          </>
        ) : null}
      </dl>
      {me?.showDeadline ? (
        <div className="deadline-notice">
          <Countdown deadline={c.deadline} serverNow={now} caption={SELECTION_CAPTION} announce="Team selection" />
          {missedPick ? (
            <p className="deadline-missed">{missedPickOutcome(c.type, c.currentMatchDay, missed)}</p>
          ) : canSelect && !currentSelection ? (
            <p className="deadline-consequence">{missedPickConsequence(c.type, missed)}</p>
          ) : null}
        </div>
      ) : null}
      <div className="actions overview-actions">
        {canRegister ? (
          <Form
            method="post"
            className="register-form"
            onSubmit={() =>
              trackEvent(c.visibility === "private" ? "private_join_attempt" : "competition_register", { competition_id: c.id })
            }
          >
            <input type="hidden" name="intent" value="register" />
            {c.visibility === "private" ? (
              <Field
                label="Registration Key"
                name="registrationKey"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                maxLength={50}
              />
            ) : null}
            <button className="btn btn-primary" type="submit" disabled={registering}>
              {registering ? "Registering..." : "Register"}
            </button>
          </Form>
        ) : null}
        {canUnregister ? (
          // Unregistering deletes the membership (and its picks): a confirm step first, a link so it works without JavaScript.
          <Link className="btn btn-danger" to={`${here}?confirm=unregister`} preventScrollReset>
            Unregister
          </Link>
        ) : null}
        {canSelect ? (
          <Link className="btn btn-primary" to={`/select-team/${c.id}`}>
            {currentSelection ? "Edit Team" : "Select Team"}
          </Link>
        ) : null}
        {eliminated ? (
          <StatusBadge status="Eliminated" />
        ) : isMember && c.status !== "active" ? (
          // An ended competition: Winner or Completed, never the pick-window's "Selection Closed".
          <StatusBadge status={me?.status === "Winner" ? "Winner" : "Completed"} />
        ) : isMember && closed ? (
          <StatusBadge status="Selection Closed" />
        ) : null}
      </div>
      {error ? (
        <div className="form-error" role="alert">
          {error}
        </div>
      ) : null}
      <RulesPanel
        type={c.type}
        rules={c.rules}
        canChange={rules.canChange}
        fixed={c.rulesFixed}
        startMatchDay={c.startMatchDay}
        closesAt={rules.closesAt}
        refusal={rules.refusal}
      />
      {canUnregister && confirmUnregister ? (
        <ConfirmDialog
          title="Unregister"
          onCancel={() => navigate(here, { replace: true, preventScrollReset: true })}
          actions={
            <>
              <Link to={here} className="btn btn-secondary" replace preventScrollReset>
                Cancel
              </Link>
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="unregister" />
                <button className="btn btn-danger" type="submit" disabled={unregistering}>
                  {unregistering ? "Unregistering..." : "Unregister"}
                </button>
              </Form>
            </>
          }
        >
          <p>
            Are you sure you want to unregister from <strong>{c.name}</strong>? Your membership and your team selections in this competition
            will be deleted.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
