import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AppErrorBoundary } from "~/components/AppErrorBoundary";
import { PageLoading } from "~/components/PageLoading";
import { SectionTabs } from "~/components/SectionTabs";
import { StatusPage } from "~/components/StatusPage";
import { LeaderboardPanel } from "~/components/scout/LeaderboardPanel";
import { ProvisionalScoutBoard, ProvisionalScoutEntries } from "~/components/scout/ProvisionalScout";
import { LockBadge } from "~/components/scout/LockBadge";
import { MyPicksPanel } from "~/components/scout/MyPicksPanel";
import { RulesPanel } from "~/components/scout/RulesPanel";
import { SelectPanel, type SaveRefusal } from "~/components/scout/SelectPanel";
import { formatKickoff, safeTimeZone } from "~/lib/date-format";
import type { LiveKey } from "~/lib/live";
import { useLive } from "~/lib/use-live";
import { intentOf, readForm, unknownIntent } from "~/lib/forms.server";
import { isUuid } from "~/lib/ids";
import { scoutHref } from "~/lib/scout";
import { getScoutPage, type LeaderboardView, type ScoutTab } from "~/models/scout.server";
import { redeem, save } from "~/models/scout-writes.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Scout | FootyCoach" }];

const TABS = [
  { id: "select", label: "Select" },
  { id: "leaderboard", label: "Leaderboard" },
  { id: "my-picks", label: "My Picks" },
  { id: "rules", label: "Rules" },
] as const satisfies readonly { id: ScoutTab; label: string }[];

function scoutNotFound(): never {
  throw new Response("Scout competition not found", { status: 404, statusText: "Not Found" });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const q = new URL(request.url).searchParams;
  const requested = q.get("competition");
  if (requested !== null && !isUuid(requested)) scoutNotFound();
  const tabParam = q.get("tab");
  const tab: ScoutTab = TABS.some((t) => t.id === tabParam) ? (tabParam as ScoutTab) : "select";
  const view: LeaderboardView = q.get("view") === "season" ? "season" : "matchday";
  const mdParam = q.get("md") ?? "";
  const matchDay = /^\d{1,3}$/.test(mdParam) ? Number(mdParam) : null;
  const edit = q.get("edit");

  const { user, data: page } = await requireUserWith(request, context, (userId) =>
    getScoutPage(context.db, userId, { competitionId: requested, tab, view, matchDay }),
  );
  if (requested && !page.state) scoutNotFound();
  const timeZone = safeTimeZone(user.timeZone);
  const s = page.state;
  // The match day shown, while it is the competition's current one (decision 022): its live object tells the page
  // when a score changes; the page then revalidates (provisional points and board: public.live_scout_board).
  const liveKey: LiveKey | null =
    s && page.matchDay === s.currentMatchDay ? { league: s.league, season: s.season, matchDay: page.matchDay } : null;
  return {
    me: user.id,
    liveKey,
    liveReadAt,
    serverNow: context.db.now.toISOString(),
    competitions: page.competitions,
    // The URL names the competition only when the player chose one (the newest is the default).
    chosenInUrl: requested,
    state: page.state,
    tab,
    view,
    matchDay: page.matchDay,
    entries: page.entries,
    fixtures: page.fixtures.map((f) => ({ ...f, kickoff: formatKickoff(f.kickoffTime, timeZone, { confirmed: f.kickoffConfirmed }) })),
    leaderboard: page.leaderboard,
    myRow: page.myRow,
    live: page.live,
    editEntryId: isUuid(edit) && page.entries.some((e) => e.id === edit) ? edit : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "redeem":
      return redeem(request, context, form);
    case "save-predictions":
      return save(request, context, form);
    default:
      return unknownIntent();
  }
}

const notFoundHandlers = {
  404: () => (
    <StatusPage
      status={404}
      title="Scout competition not found"
      message="This Scout competition does not exist or is no longer active."
      linkTo="/scout"
      linkLabel="Back to Scout"
    />
  ),
};

export function ErrorBoundary() {
  return <AppErrorBoundary handlers={notFoundHandlers} />;
}

export default function ScoutPage() {
  const d = useLoaderData<typeof loader>();
  useLive(d.liveKey ? [d.liveKey] : [], d.liveReadAt);
  const location = useLocation();
  const actionData = useActionData<typeof action>() as { intent?: string; message?: string | null; entryId?: string } | undefined;
  const s = d.state;
  const competitionParam = d.chosenInUrl ?? null;
  const refusal = actionData?.intent === "save-predictions" && actionData.entryId ? (actionData as unknown as SaveRefusal) : null;
  const redeemError = actionData?.intent === "redeem" ? actionData.message : null;

  const keepBase: Record<string, string> = competitionParam ? { competition: competitionParam } : {};
  const here = (params: Record<string, string | number | null | undefined>) => scoutHref(competitionParam, params);

  return (
    <div className="container scout-page">
      <header className="page-header scout-header">
        <h1>Scout</h1>
        {s ? <LockBadge lockTime={s.lockTime} locked={s.locked} hasFixtures={s.hasFixtures} serverNow={d.serverNow} /> : null}
      </header>

      <PageLoading />

      {d.competitions.length === 0 || !s ? (
        <p className="empty-state">No active Scout competitions found</p>
      ) : (
        <>
          {d.competitions.length > 1 ? (
            <nav aria-label="Scout competitions" className="scout-picker">
              <ul className="list-plain scout-cards">
                {d.competitions.map((c) => (
                  <li key={c.id}>
                    <Link
                      to={scoutHref(c.id)}
                      className={`card scout-card${c.id === s.id ? " is-active" : ""}`}
                      aria-current={c.id === s.id ? "page" : undefined}
                    >
                      <strong>{c.name}</strong>
                      <span>
                        {c.league} · {c.season}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : (
            <section className="card scout-card is-active" aria-label="Scout competition">
              <strong>{s.name}</strong>
              <span>
                {s.league} · {s.season}
              </span>
            </section>
          )}

          {/* Compact on phones (one row), so the Select tab's first action is on the first screen; the prize
              comes after the tabs. */}
          <section className="scout-summary" aria-label="Your tickets">
            <dl className="scout-tickets">
              <div>
                <dt>FootyCoach tickets</dt>
                <dd data-testid="footycoach-tickets">{s.footycoachTickets}</dd>
              </div>
              <div>
                <dt>Referral tickets</dt>
                <dd data-testid="referral-tickets">{s.referralTickets}</dd>
              </div>
              <div>
                <dt>Match Day</dt>
                <dd>{s.currentMatchDay}</dd>
              </div>
            </dl>
          </section>

          <SectionTabs
            tabs={TABS}
            active={d.tab}
            defaultTab="select"
            label="Scout sections"
            drop={["edit", "view", "md"]}
            keep={keepBase}
          />

          {redeemError ? (
            <p className="alert alert-error" role="alert">
              {redeemError}
            </p>
          ) : null}

          <section className="card tab-panel" aria-label={TABS.find((t) => t.id === d.tab)?.label}>
            {d.tab === "leaderboard" && d.view === "matchday" ? <ProvisionalScoutBoard rows={d.live} me={d.me} /> : null}
            {d.tab === "select" || d.tab === "my-picks" ? <ProvisionalScoutEntries rows={d.live} /> : null}
            {d.tab === "select" ? (
              <SelectPanel
                competitionId={s.id}
                matchDay={s.currentMatchDay}
                locked={s.locked}
                hasFixtures={s.hasFixtures}
                footycoachTickets={s.footycoachTickets}
                referralTickets={s.referralTickets}
                entries={d.entries}
                fixtures={d.fixtures}
                editEntryId={d.editEntryId}
                editHref={(entryId) => here({ edit: entryId })}
                refusal={refusal}
              />
            ) : null}
            {d.tab === "leaderboard" ? (
              <LeaderboardPanel
                view={d.view}
                matchDay={d.matchDay}
                currentMatchDay={s.currentMatchDay}
                rows={d.leaderboard}
                myRow={d.myRow}
                me={d.me}
                viewHref={(view) =>
                  here({
                    tab: "leaderboard",
                    view: view === "season" ? "season" : null,
                    md: view === "season" ? null : new URLSearchParams(location.search).get("md"),
                  })
                }
                keep={{ ...keepBase, tab: "leaderboard" }}
              />
            ) : null}
            {d.tab === "my-picks" ? (
              <MyPicksPanel
                matchDay={d.matchDay}
                currentMatchDay={s.currentMatchDay}
                entries={d.entries}
                fixtures={d.fixtures}
                keep={{ ...keepBase, tab: "my-picks" }}
              />
            ) : null}
            {d.tab === "rules" ? <RulesPanel /> : null}
          </section>
          {s.prize ? (
            <section className="card scout-prize" aria-labelledby="scout-prize-title">
              {s.prize.imageUrl ? <img src={s.prize.imageUrl} alt={s.prize.title ?? "Prize"} className="scout-prize-image" /> : null}
              <div>
                <h2 id="scout-prize-title">{s.prize.title ?? "Prize"}</h2>
                {s.prize.description ? <p>{s.prize.description}</p> : null}
                {s.prize.termsUrl ? (
                  <a href={s.prize.termsUrl} target="_blank" rel="noopener noreferrer">
                    Prize terms and conditions
                  </a>
                ) : null}
              </div>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
