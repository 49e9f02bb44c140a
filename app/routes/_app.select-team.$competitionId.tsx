import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { CompetitionErrorBoundary } from "~/components/CompetitionNotFound";
import { competitionNotFound } from "~/lib/competition-not-found";
import { formatDeadline, safeTimeZone } from "~/lib/date-format";
import { selectionRefusalReason } from "~/lib/outcome-messages";
import { groupFixtures } from "~/models/fixture-rows.server";
import { getTeamSelectionPage } from "~/models/selections.server";
import { jokerAction, selectTeam } from "~/loaders/select-team-actions.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";
import css from "~/styles/pages/selection.css?url";
import { Countdown } from "~/components/Countdown";
import { missedPickConsequence, missedPickOutcome, SELECTION_CAPTION } from "~/lib/deadline-messages";
import { PageLoading } from "~/components/PageLoading";
import { intentOf, readForm, unknownIntent } from "~/lib/forms.server";
import { isUuid } from "~/lib/ids";
import { PickedTeam, StatusBadge } from "~/components/Badges";
import { ComingMatchDays, MatchDaySteps } from "~/components/selection/ComingMatchDays";
import { JokerPanel } from "~/components/selection/JokerPanel";
import { ConfirmPick, PickFixtures } from "~/components/selection/PickFixtures";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `Team Selection - ${data.competition.name} | FootyCoach` : "Team Selection | FootyCoach" },
];

/** `?md=N`: a coming match day to show (the model shows the current one for anything else). */
function askedMatchDay(url: URL): number | null {
  const md = url.searchParams.get("md");
  return md && /^\d{1,3}$/.test(md) ? Number(md) : null;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const competitionId = params.competitionId;
  const url = new URL(request.url);
  const { user, data: page } = await requireUserWith(request, context, async (userId) =>
    isUuid(competitionId) ? getTeamSelectionPage(context.db, userId, competitionId, askedMatchDay(url)) : null,
  );
  if (!page) competitionNotFound();
  const timeZone = safeTimeZone(user.timeZone);
  const member = page.membership;
  const c = page.competition;
  const matchDay = page.matchDay;
  const isCurrent = matchDay === c.currentMatchDay;
  const base = `/select-team/${c.id}`;
  const hrefOf = (md: number) => (md === c.currentMatchDay ? base : `${base}?md=${md}`);
  // Decided in SQL (get_eligible_teams for the shown match day): only an active member, only while it is a coming one.
  const selectable = page.eligibleTeams.filter((t) => t !== page.currentSelection);
  const confirm = url.searchParams.get("confirm");
  const knockout = c.type === "knockout";
  const active = member?.status === "active" && c.status === "active";
  const deadlinePassed = page.deadline !== null && new Date(page.deadline).getTime() <= context.now.getTime();
  const coming = page.comingMatchDays.map((m) => ({
    matchDay: m.matchDay,
    href: hrefOf(m.matchDay),
    closes: formatDeadline(m.deadline, timeZone),
    team: m.team,
    autoPicked: m.autoPicked,
    joker: m.joker,
    shown: m.matchDay === matchDay,
  }));
  const at = coming.findIndex((m) => m.shown);
  return {
    competition: c,
    matchDay,
    isCurrent,
    here: hrefOf(matchDay),
    deadline: page.deadline,
    now: context.now.toISOString(),
    // A knockout team is used once, plans included: the page says where (the database refuses it anyway).
    usedOn: knockout ? Object.fromEntries(page.usedTeams.map((u) => [u.team, { matchDay: u.matchDay, planned: u.planned }])) : {},
    // The next step and what a missed pick means, for an active member.
    showDeadline: active,
    missedPick: active && deadlinePassed && !page.currentSelection,
    missedContext: { missedPick: page.rules.missedPick, livesLeft: member?.livesLeft ?? null },
    livesLeft: member?.livesLeft ?? null,
    currentSelection: page.currentSelection,
    currentAutoPicked: page.currentAutoPicked,
    closed: !page.selectionOpen,
    eliminated: member?.status === "eliminated",
    isMember: !!member,
    selectable,
    groups: groupFixtures(page.fixtures, timeZone),
    coming: active ? coming : [],
    previous: active && at > 0 ? coming[at - 1] : null,
    next: active && at >= 0 && at < coming.length - 1 ? coming[at + 1] : null,
    joker: active ? page.joker : null,
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
  // A save that could not be made (503) keeps the chosen team in its dialog, so Yes tries again.
  const confirmTeam = pending ?? d.confirmTeam ?? (actionData?.team && d.selectable.includes(actionData.team) ? actionData.team : null);
  const type = d.competition.type;

  const cancel = () => {
    setPending(null);
    // A kept choice (the save's 503 answer) is closed by navigating away from that answer too.
    if (d.confirmTeam || actionData?.team) navigate(d.here, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="container selection-page">
      <header className="page-header">
        <div>
          <h1>Team Selection - {d.competition.name}</h1>
          <dl className="kv selection-summary">
            <dt>Current Match Day</dt>
            <dd>{d.competition.currentMatchDay}</dd>
            <dt>{d.isCurrent ? "Current Selection" : `Your Pick for Match Day ${d.matchDay}`}</dt>
            <dd data-testid="current-selection">
              {d.currentSelection ? <PickedTeam team={d.currentSelection} autoPicked={d.currentAutoPicked} /> : "--"}
            </dd>
            {d.livesLeft !== null ? (
              <>
                <dt>Lives Left</dt>
                <dd data-testid="my-lives">{d.livesLeft}</dd>
              </>
            ) : null}
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
            <p className="deadline-missed">{missedPickOutcome(type, d.matchDay, d.missedContext)}</p>
          ) : !d.closed && !d.currentSelection ? (
            <p className="deadline-consequence">{missedPickConsequence(type, d.missedContext)}</p>
          ) : null}
        </section>
      ) : null}

      {d.currentSelection && d.isMember ? (
        <section className="card next-steps" aria-label="Next steps">
          <p>
            Your pick for Match Day {d.matchDay}: <strong>{d.currentSelection}</strong>.
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

      {d.joker ? <JokerPanel joker={d.joker} matchDay={d.matchDay} open={!d.closed} /> : null}

      <section className="card" aria-labelledby="fixtures-heading">
        <div className="card-header fixtures-header">
          <h2 id="fixtures-heading">Match Day {d.matchDay} Fixtures</h2>
          <MatchDaySteps previous={d.previous} next={d.next} />
        </div>
        <PickFixtures
          groups={d.groups}
          matchDay={d.matchDay}
          isCurrent={d.isCurrent}
          currentSelection={d.currentSelection}
          selectable={d.selectable}
          usedOn={d.usedOn}
          onChoose={setPending}
        />
      </section>

      <ComingMatchDays rows={d.coming} />

      {confirmTeam ? (
        <ConfirmPick team={confirmTeam} matchDay={d.matchDay} isCurrent={d.isCurrent} here={d.here} onCancel={cancel} />
      ) : null}
    </div>
  );
}

export { CompetitionErrorBoundary as ErrorBoundary };
