import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { CompetitionErrorBoundary } from "~/components/CompetitionNotFound";
import { competitionNotFound } from "~/lib/competition-not-found";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { FixtureList } from "~/components/FixtureList";
import { safeTimeZone } from "~/lib/date-format";
import { selectionRefusalReason } from "~/lib/outcome-messages";
import { groupFixtures } from "~/models/fixture-rows.server";
import { getTeamSelectionPage } from "~/models/selections.server";
import { jokerAction, selectTeam } from "~/loaders/select-team-actions.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";
import css from "~/styles/pages/selection.css?url";
import { Countdown } from "~/components/Countdown";
import { TeamBadge } from "~/components/TeamBadge";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { PageLoading } from "~/components/PageLoading";
import { usePending } from "~/components/usePending";
import { intentOf, readForm, unknownIntent } from "~/lib/forms.server";
import { isUuid } from "~/lib/ids";
import { StatusBadge } from "~/components/Badges";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `Team Selection - ${data.competition.name} | FootyCoach` : "Team Selection | FootyCoach" },
];

/** `?md=N`: a coming match day to plan for (getTeamSelectionPage shows the current one for anything else). */
function matchDayParam(url: URL): number | null {
  const md = url.searchParams.get("md");
  return md && /^\d{1,3}$/.test(md) ? Number(md) : null;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const competitionId = params.competitionId;
  const url = new URL(request.url);
  const { user, data: page } = await requireUserWith(request, context, async (userId) =>
    isUuid(competitionId) ? getTeamSelectionPage(context.db, userId, competitionId, matchDayParam(url)) : null,
  );
  if (!page) competitionNotFound();
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

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  if (!isUuid(params.competitionId)) competitionNotFound();
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "select":
      return selectTeam(request, context, params.competitionId, form);
    case "joker":
      return jokerAction(request, context, params.competitionId, form);
    default:
      return unknownIntent();
  }
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
