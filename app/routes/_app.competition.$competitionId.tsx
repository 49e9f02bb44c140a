import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LiveMatchDayPanel } from "~/components/LiveMatchDay";
import { useLive } from "~/lib/use-live";
import { competitionNotFound } from "~/lib/competition-not-found";
import { CompetitionStandings } from "~/components/competition/CompetitionStandings";
import { DetailsPanel } from "~/components/competition/DetailsPanel";
import { ManageSelectionsPanel } from "~/components/competition/ManageSelectionsPanel";
import { MySelectionsPanel, type MySelectionRow } from "~/components/competition/MySelectionsPanel";
import { OverviewPanel } from "~/components/competition/OverviewPanel";
import { PrizesPanel } from "~/components/competition/PrizesPanel";
import { RegisteredPlayers } from "~/components/competition/RegisteredPlayers";
import { HistoryFooter, HistoryHeader } from "~/components/competition/HistorySections";
import { historyAction, historyView, readCompetitionHistory } from "~/loaders/competition-history.server";
import { SectionTabs } from "~/components/SectionTabs";
import { FixtureList } from "~/components/FixtureList";
import { HowToPlay } from "~/components/HowToPlay";
import { PageLoading } from "~/components/PageLoading";
import { pageFrom } from "~/lib/paging";
import { intentOf, readForm, unknownIntent } from "~/lib/forms.server";
import { isUuid } from "~/lib/ids";
import { canManageSelections, championOf, getCompetitionDetail, PLAYERS_PAGE_SIZE } from "~/models/competition-detail.server";
import { register, setSelection, unregister, updateRules, type CompetitionAct } from "~/loaders/competition-actions.server";
import type { RulesRefusal } from "~/components/competition/RulesPanel";
import { formatDeadline, formatKickoff, safeTimeZone } from "~/lib/date-format";
import { pageCount } from "~/lib/paging";
import { groupFixtures } from "~/models/fixture-rows.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";
import css from "~/styles/pages/selection.css?url";
import { playerStatusLabel } from "~/lib/player-status";

export { CompetitionErrorBoundary as ErrorBoundary } from "~/components/CompetitionNotFound";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.competition ? `${data.competition.name} | FootyCoach` : "Competition | FootyCoach" },
];

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "details", label: "Details" },
  { id: "prizes", label: "Prizes" },
  { id: "my-selections", label: "My Selections" },
  { id: "manage-selections", label: "Manage Selections" },
] as const;
type TabId = (typeof TABS)[number]["id"];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const competitionId = params.competitionId;
  const url = new URL(request.url);
  const playersPage = pageFrom(url, "playersPage");
  // The page's reads travel with the session check (one round trip); nothing in them depends on the role.
  const { user, data: read } = await requireUserWith(request, context, async (userId) =>
    isUuid(competitionId)
      ? Promise.all([
          getCompetitionDetail(context.db, userId, competitionId, playersPage),
          readCompetitionHistory(context.db, userId, competitionId, url),
        ])
      : null,
  );
  const [detail, history] = read ?? [];
  if (!detail || !history) competitionNotFound();
  const canManage = canManageSelections(user, detail.competition);
  const timeZone = safeTimeZone(user.timeZone);
  const { competition: c, membership } = detail;

  const isMember = !!membership;
  const available: TabId[] = ["overview", "details", "prizes"];
  if (isMember) available.push("my-selections");
  if (canManage) available.push("manage-selections");
  const requested = url.searchParams.get("tab") as TabId | null;
  const tab: TabId = requested && available.includes(requested) ? requested : "overview";

  // Both rules are decided in SQL (registration_state, selection_open / the stats view's selection_status).
  const registrationOpen = c.registrationStatus === "open";
  const eliminated = membership?.status === "eliminated";
  const canSelect = membership?.selectionStatus === "active";
  const teams = detail.fixtures.flatMap((f) => [f.homeTeam, f.awayTeam]).sort((a, b) => a.localeCompare(b));

  const activeMember = membership?.status === "active" && c.status === "active";
  const deadlinePassed = c.deadline !== null && new Date(c.deadline).getTime() <= context.now.getTime();
  const myStatus = membership
    ? playerStatusLabel({ type: c.type, competitionStatus: c.status, membershipStatus: membership.status, rank: membership.rank })
    : null;

  return {
    competition: c,
    liveReadAt,
    now: context.now.toISOString(),
    me: membership
      ? { status: myStatus, rank: membership.rank, points: membership.points, showDeadline: activeMember, livesLeft: membership.livesLeft }
      : null,
    missedPick: activeMember && deadlinePassed && !detail.currentSelection,
    tab,
    tabs: TABS.filter((t) => available.includes(t.id)),
    champion: championOf(detail),
    isMember,
    membershipStatus: membership?.status ?? null,
    currentSelection: detail.currentSelection,
    currentAutoPicked: detail.mySelections.some((s) => s.matchDay === c.currentMatchDay && s.autoPicked),
    // The creator (and admins) may change the rules until the start match day's deadline (update_competition_rules decides).
    rulesCloseAt: c.rulesFixed || !c.deadline ? null : formatDeadline(c.deadline, timeZone),
    closed: !c.selectionOpen,
    eliminated,
    canRegister: !isMember && registrationOpen,
    canUnregister: isMember && registrationOpen,
    confirmUnregister: url.searchParams.get("confirm") === "unregister",
    canSelect,
    canManage,
    mySelections: detail.mySelections.map((s): MySelectionRow => ({
      matchDay: s.matchDay,
      team: s.team,
      autoPicked: s.autoPicked,
      home: s.fixture.homeTeam,
      away: s.fixture.awayTeam,
      score: s.fixture.status === "complete" && s.fixture.homeScore !== null ? `${s.fixture.homeScore} - ${s.fixture.awayScore}` : null,
      kickoff: formatKickoff(s.fixture.kickoffTime, timeZone, { confirmed: s.fixture.kickoffConfirmed }),
      postponed: s.fixture.status === "postponed",
    })),
    players: detail.players,
    live: detail.live,
    // the page listens for changes of its current match day while the competition is played (decision 022)
    liveKey: c.status === "active" ? { league: c.league, season: c.season, matchDay: c.currentMatchDay } : null,
    playersPage,
    playersPageCount: pageCount(c.playerCount, PLAYERS_PAGE_SIZE),
    seasonStandings: detail.seasonStandings,
    knockoutStandings: detail.knockoutStandings,
    groups: groupFixtures(detail.fixtures, timeZone),
    teams,
    manageRows: detail.manageRows,
    history: historyView(history, c, isMember, timeZone),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  if (!isUuid(params.competitionId)) competitionNotFound();
  const form = await readForm(request);
  const act: CompetitionAct = { request, context, competitionId: params.competitionId };
  switch (intentOf(form)) {
    case "register":
      return register(act, form);
    case "unregister":
      return unregister(act);
    case "set-selection":
      return setSelection(act, form);
    case "update-rules":
      return updateRules(act, form);
    case "next-season":
    case "join-next-season":
      return historyAction(act, form);
    default:
      return unknownIntent();
  }
}

export default function CompetitionDetailPage() {
  const d = useLoaderData<typeof loader>();
  // A refused form: its message shows beside the form that was sent (redirects carry a toast instead).
  const refusal = useActionData<typeof action>() as ({ intent?: string; message?: string } & Partial<RulesRefusal>) | undefined;
  const c = d.competition;
  const message = refusal?.message || null;
  const fromManage = refusal?.intent === "set-selection";
  const fromRules = refusal?.intent === "update-rules";
  const rulesRefusal = fromRules && message ? { message, field: refusal?.field ?? null, values: refusal?.values } : null;
  const fromNextSeason = refusal?.intent === "next-season";
  useLive(d.liveKey ? [d.liveKey] : [], d.liveReadAt);

  return (
    <div className="container competition-detail">
      <header className="page-header">
        <div>
          <h1>{c.name}</h1>
          <p className="subtitle">
            {c.league} · {c.season} · {c.type === "season" ? "Season" : "Knockout"}
          </p>
        </div>
      </header>

      <PageLoading text="Loading competition..." />

      {d.champion ? (
        <section className="card champion-banner" aria-label="Champion">
          <h2>Champion: {d.champion}</h2>
          <p>
            Congratulations to {d.champion} on winning {c.name}!
          </p>
        </section>
      ) : null}

      <HistoryHeader history={d.history} competition={c} error={fromNextSeason ? message : null} />
      <LiveMatchDayPanel line={d.live.line} fixtures={d.live.fixtures} shares={d.live.shares} />

      <SectionTabs
        tabs={d.tabs}
        active={d.tab}
        defaultTab="overview"
        label="Competition sections"
        extra={{ href: "#how-to-play", label: "How to play" }}
      />

      <section className="card tab-panel" aria-label={d.tabs.find((t) => t.id === d.tab)?.label}>
        {d.tab === "overview" ? (
          <OverviewPanel
            competition={c}
            currentSelection={d.currentSelection}
            currentAutoPicked={d.currentAutoPicked}
            isMember={d.isMember}
            closed={d.closed}
            eliminated={d.eliminated}
            canRegister={d.canRegister}
            canUnregister={d.canUnregister}
            canSelect={d.canSelect}
            error={fromManage || fromRules || fromNextSeason ? null : message}
            confirmUnregister={d.confirmUnregister}
            me={d.me}
            now={d.now}
            missedPick={d.missedPick}
            rules={{ canChange: d.canManage, closesAt: d.rulesCloseAt, refusal: rulesRefusal }}
          />
        ) : null}
        {d.tab === "details" ? <DetailsPanel competition={c} /> : null}
        {d.tab === "prizes" ? <PrizesPanel prize={c.prize} /> : null}
        {d.tab === "my-selections" ? <MySelectionsPanel selections={d.mySelections} /> : null}
        {d.tab === "manage-selections" ? (
          <ManageSelectionsPanel
            currentMatchDay={c.currentMatchDay}
            members={d.manageRows}
            teams={d.teams}
            error={fromManage ? message : null}
          />
        ) : null}
      </section>

      <RegisteredPlayers competition={c} players={d.players} page={d.playersPage} pageCount={d.playersPageCount} />

      <CompetitionStandings competition={c} seasonStandings={d.seasonStandings} knockoutStandings={d.knockoutStandings} />
      <HistoryFooter history={d.history} competitionId={c.id} tab={d.tab} />

      <section className="card" aria-labelledby="fixtures-heading">
        <h2 id="fixtures-heading">Fixtures - Match Day {c.currentMatchDay}</h2>
        <FixtureList groups={d.groups} />
      </section>

      <HowToPlay competition={{ type: c.type, rules: c.rules }} />
    </div>
  );
}
