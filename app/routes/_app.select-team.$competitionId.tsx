import type { ActionFunctionArgs, AppLoadContext, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { CompetitionErrorBoundary } from "~/components/CompetitionNotFound";
import { competitionNotFound } from "~/lib/competition-not-found";
import { z } from "zod";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { FixtureList } from "~/components/FixtureList";
import { safeTimeZone } from "~/lib/date-format";
import { selectionRefusalReason } from "~/lib/outcome-messages";
import { groupFixtures } from "~/models/fixture-rows.server";
import { getTeamSelectionPage, saveTeamSelection, type SaveSelectionCode } from "~/models/selections.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
import css from "~/styles/pages/selection.css?url";
import { Countdown } from "~/components/Countdown";
import { TeamBadge } from "~/components/TeamBadge";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { PageLoading } from "~/components/PageLoading";
import { usePending } from "~/components/usePending";
import { commitOrRefuse, intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { isUuid } from "~/lib/ids";
import { StatusBadge } from "~/components/Badges";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `Team Selection - ${data.competition.name} | FootyCoach` : "Team Selection | FootyCoach" },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const competitionId = params.competitionId;
  const { user, data: page } = await requireUserWith(request, context, async (userId) =>
    isUuid(competitionId) ? getTeamSelectionPage(context.db, userId, competitionId) : null,
  );
  if (!page) competitionNotFound();
  const url = new URL(request.url);
  const timeZone = safeTimeZone(user.timeZone);
  const member = page.membership;
  const eliminated = member?.status === "eliminated";
  // Decided in SQL: the stats view's selection_status is "active" exactly when this member may pick now.
  const canPick = member?.selectionStatus === "active";
  const selectable = canPick ? page.eligibleTeams.filter((t) => t !== page.currentSelection) : [];
  const confirm = url.searchParams.get("confirm");
  const knockout = page.competition.type === "knockout";
  const deadlinePassed = page.deadline !== null && new Date(page.deadline).getTime() <= context.now.getTime();
  return {
    competition: page.competition,
    knockout,
    deadline: page.deadline,
    now: context.now.toISOString(),
    // A knockout team is used once: the page says on which match day (the database refuses it anyway).
    usedOn: knockout ? Object.fromEntries(page.usedTeams.map((u) => [u.team, u.matchDay])) : {},
    // The next step and what a missed pick means, for an active member.
    showDeadline: member?.status === "active" && page.competition.status === "active",
    missedPick: member?.status === "active" && page.competition.status === "active" && deadlinePassed && !page.currentSelection,
    currentSelection: page.currentSelection,
    closed: !page.selectionOpen,
    eliminated,
    isMember: !!member,
    selectable,
    groups: groupFixtures(page.fixtures, timeZone),
    // The no-JavaScript confirm step: only for a team the player may pick now.
    confirmTeam: confirm && selectable.includes(confirm) ? confirm : null,
    reason: selectionRefusalReason(url.searchParams.get("error")),
  };
}

const SelectSchema = z.object({ team: z.string().trim().min(1).max(60) });

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  if (!isUuid(params.competitionId)) competitionNotFound();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "select":
      return select(request, context, params.competitionId, form);
    default:
      return unknownIntent();
  }
}

/** Saves the player's pick for the current match day; the database decides whether it is allowed. */
async function select(request: Request, context: AppLoadContext, competitionId: string, form: FormData) {
  const here = `/select-team/${competitionId}`;
  const parsed = parseForm(form, SelectSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to save team selection.");

  // What the player chose, kept by the form when nothing could be saved (the dialog stays open: Yes tries again).
  const echo = { team: parsed.data.team };
  let code: SaveSelectionCode;
  try {
    // The pick travels with the session check and its COMMIT in one message (one round trip; decision 024): the
    // competition row it locks is held for the database's own time, not a round trip to the Worker and back. It
    // counts only if the session is confirmed (else it ran with no identity and wrote nothing).
    ({ data: code } = await requireUserWith(request, context, (userId) => {
      const saving = saveTeamSelection(context.db, userId, competitionId, parsed.data.team);
      context.db.commitWithQueued();
      return saving;
    }));
  } catch (error) {
    // The login redirect, or a 400 for a value the database cannot take.
    if (error instanceof Response && error.status !== 503) throw error;
    // Nothing was saved: the database is unavailable (down, restarting, no pooled connection), or the message
    // failed (its COMMIT included). The spec's failure text with 503, never a stack trace, and the form keeps the
    // chosen team so that Yes tries again.
    if (!(error instanceof Response)) console.error("save_team_selection failed:", (error as Error)?.message ?? error);
    return invalid({}, "Failed to save team selection.", 503, echo);
  }
  if (code === "saved") {
    // The success toast only after the COMMIT: a failed one answers the spec's failure text with 503.
    const failed = await commitOrRefuse(context.db, "Failed to save team selection.", echo);
    if (failed) return failed;
    return redirectWithToast(context.env, here, { type: "success", message: "Team selection saved successfully!" });
  }
  return redirectWithToast(context.env, `${here}?error=${encodeURIComponent(code)}`, {
    type: "error",
    message: "Failed to save team selection.",
  });
}

export default function TeamSelectionPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { message?: string; team?: string } | undefined;
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  // Fresh loader data (after the save's redirect, the "reload") closes the dialog.
  const [seenData, setSeenData] = useState(d);
  if (d !== seenData) {
    setSeenData(d);
    setPending(null);
  }
  const here = `/select-team/${d.competition.id}`;
  // A save that could not be made (503) keeps the chosen team in its dialog, so Yes tries again.
  const confirmTeam = pending ?? d.confirmTeam ?? (actionData?.team && d.selectable.includes(actionData.team) ? actionData.team : null);
  const saving = usePending("select");

  const cancel = () => {
    setPending(null);
    // A kept choice (the save's 503 answer) is closed by navigating away from that answer too.
    if (d.confirmTeam || actionData?.team) navigate(here, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="container selection-page">
      <header className="page-header">
        <div>
          <h1>Team Selection - {d.competition.name}</h1>
          <dl className="kv selection-summary">
            <dt>Current Match Day</dt>
            <dd>{d.competition.currentMatchDay}</dd>
            <dt>Current Selection</dt>
            <dd data-testid="current-selection">{d.currentSelection ?? "--"}</dd>
          </dl>
        </div>
        <div className="actions">
          {d.eliminated ? <StatusBadge status="Eliminated" /> : d.closed ? <StatusBadge status="Selection Closed" /> : null}
          <Link className="btn btn-secondary" to={`/competition/${d.competition.id}`}>
            View Competition
          </Link>
        </div>
      </header>

      <PageLoading />

      {d.reason || actionData?.message ? (
        <div className="alert alert-error" role="alert">
          {d.reason ?? actionData?.message}
        </div>
      ) : null}

      {d.showDeadline ? (
        <section className="deadline-notice" aria-label="Selection deadline">
          <Countdown deadline={d.deadline} serverNow={d.now} caption={SELECTION_CAPTION} announce="Team selection" />
          {d.missedPick ? (
            <p className="deadline-missed">{missedPickOutcome(d.competition.type, d.competition.currentMatchDay)}</p>
          ) : !d.closed && !d.currentSelection ? (
            <p className="deadline-consequence">{missedPickConsequence(d.competition.type)}</p>
          ) : null}
        </section>
      ) : null}

      {d.currentSelection && d.isMember ? (
        <section className="card next-steps" aria-label="Next steps">
          <p>
            Your pick for Match Day {d.competition.currentMatchDay}: <strong>{d.currentSelection}</strong>.
            {d.closed ? null : " You can change it until selection closes."}
          </p>
          <Link className="btn btn-primary" to={`/competition/${d.competition.id}`}>
            Back to competition
          </Link>
          <Link className="btn btn-secondary" to="/dashboard">
            Go to Dashboard
          </Link>
        </section>
      ) : null}

      {!d.isMember ? (
        <div className="card notice">
          <p>You are not registered for this competition. Register on the competition page to pick a team.</p>
          <Link className="btn btn-primary" to={`/competition/${d.competition.id}`}>
            View Competition
          </Link>
        </div>
      ) : null}

      <section className="card" aria-labelledby="fixtures-heading">
        <h2 id="fixtures-heading">Match Day {d.competition.currentMatchDay} Fixtures</h2>
        <Form method="get" preventScrollReset replace>
          <FixtureList
            groups={d.groups}
            renderTeam={(team, side, fixture) => {
              const selected = team === d.currentSelection;
              const enabled = d.selectable.includes(team);
              const usedOn = selected ? undefined : d.usedOn[team];
              const noteId = `used-${fixture.id}-${side}`;
              return (
                <div className="team-cell">
                  <button
                    type="submit"
                    name="confirm"
                    value={team}
                    className={`btn team-button${selected ? " is-selected" : ""}`}
                    aria-pressed={selected}
                    aria-describedby={usedOn ? noteId : undefined}
                    disabled={!enabled}
                    onClick={(event) => {
                      event.preventDefault();
                      setPending(team);
                    }}
                  >
                    <TeamBadge team={team} />
                    <span className="team-button-name">{team}</span>
                  </button>
                  {usedOn ? (
                    <span className="team-note" id={noteId}>
                      Used on Match Day {usedOn}
                    </span>
                  ) : null}
                </div>
              );
            }}
          />
        </Form>
      </section>

      {confirmTeam ? (
        <ConfirmDialog
          title="Confirm Your Selection"
          onCancel={cancel}
          actions={
            <>
              <Link
                className="btn btn-secondary"
                to={here}
                replace
                preventScrollReset
                onClick={(event) => {
                  event.preventDefault();
                  cancel();
                }}
              >
                Cancel
              </Link>
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="select" />
                <input type="hidden" name="team" value={confirmTeam} />
                <button className="btn btn-primary" type="submit" disabled={saving}>
                  {saving ? "Saving..." : "Yes"}
                </button>
              </Form>
            </>
          }
        >
          <p>
            Do you want to select <strong>{confirmTeam}</strong> for Match Day {d.competition.currentMatchDay}?
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export { CompetitionErrorBoundary as ErrorBoundary };
