import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
} from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { competitionNotFound } from "~/components/CompetitionNotFound";
import { Field } from "~/components/Field";
import { FixtureList } from "~/components/FixtureList";
import { leaderboardPath } from "~/components/LeaderboardPage";
import { Pager, pageFrom } from "~/components/Pager";
import { SeasonStatCells, SeasonStatHeadings } from "~/components/SeasonStatColumns";
import { trackEvent } from "~/lib/analytics.client";
import { ordinal } from "~/lib/ordinal";
import {
  championOf,
  getCompetitionDetail,
  PLAYERS_PAGE_SIZE,
  setPlayerSelection,
  setSelectionMessage,
  type SetSelectionCode,
} from "~/models/competition-detail.server";
import { joinCompetition, joinMessage, unregisterCompetition, unregisterMessage } from "~/models/competitions.server";
import { formatKickoff, groupFixtures, safeTimeZone } from "~/models/selections.server";
import { requireUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
import css from "~/styles/selection.css?url";
import { PageLoading } from "~/components/PageLoading";
import { UUID_PATTERN, isUuid } from "~/lib/ids";

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

const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  if (!isUuid(params.competitionId)) competitionNotFound();
  const url = new URL(request.url);
  const playersPage = pageFrom(url, "playersPage");
  const detail = await getCompetitionDetail(context.db, user, params.competitionId, playersPage);
  if (!detail) competitionNotFound();
  const timeZone = safeTimeZone(user.timeZone);
  const { competition: c, membership } = detail;

  const isMember = !!membership;
  const available: TabId[] = ["overview", "details", "prizes"];
  if (isMember) available.push("my-selections");
  if (detail.canManage) available.push("manage-selections");
  const requested = url.searchParams.get("tab") as TabId | null;
  const tab: TabId = requested && available.includes(requested) ? requested : "overview";

  const registrationOpen = c.registrationStatus === "open" && c.status === "active";
  const eliminated = membership?.status === "eliminated";
  const canSelect = isMember && membership.status === "active" && c.status === "active" && !detail.closed;
  const teams = detail.fixtures.flatMap((f) => [f.homeTeam, f.awayTeam]).sort((a, b) => a.localeCompare(b));

  return {
    competition: c,
    tab,
    tabs: TABS.filter((t) => available.includes(t.id)),
    champion: championOf(detail),
    isMember,
    membershipStatus: membership?.status ?? null,
    currentSelection: detail.currentSelection,
    closed: detail.closed,
    eliminated,
    canRegister: !isMember && registrationOpen,
    canUnregister: isMember && registrationOpen,
    canSelect,
    canManage: detail.canManage,
    mySelections: detail.mySelections.map((s) => ({
      matchDay: s.matchDay,
      team: s.team,
      home: s.fixture.homeTeam,
      away: s.fixture.awayTeam,
      score:
        s.fixture.status === "complete" && s.fixture.homeScore !== null ? `${s.fixture.homeScore} - ${s.fixture.awayScore}` : null,
      kickoff: formatKickoff(s.fixture.kickoffTime, timeZone),
      postponed: s.fixture.status === "postponed",
    })),
    players: detail.players,
    playersPage,
    playersPageCount: Math.max(1, Math.ceil(c.playerCount / PLAYERS_PAGE_SIZE)),
    seasonStandings: detail.seasonStandings,
    knockoutStandings: detail.knockoutStandings,
    groups: groupFixtures(detail.fixtures, timeZone),
    teams,
    manageRows: detail.manageRows,
  };
}

const IdSchema = z.string().regex(UUID_PATTERN);
const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("register"), registrationKey: z.string().trim().max(50).optional() }),
  z.object({ intent: z.literal("unregister") }),
  z.object({ intent: z.literal("set-selection"), userId: IdSchema, team: z.string().trim().min(1).max(60) }),
]);

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  if (!isUuid(params.competitionId)) competitionNotFound();
  const id = params.competitionId;
  const here = `/competition/${id}`;
  const form = await request.formData();
  const raw = Object.fromEntries(
    ["intent", "registrationKey", "userId", "team"].flatMap((k) => {
      const v = form.get(k);
      return typeof v === "string" ? [[k, v]] : [];
    }),
  );
  const parsed = ActionSchema.safeParse(raw);
  if (!parsed.success) {
    const message = raw.intent === "set-selection" ? "Failed to update selection." : "Please fill in all required fields.";
    return data({ intent: String(raw.intent ?? ""), message }, { status: 400 });
  }
  const input = parsed.data;

  if (input.intent === "register") {
    const code = await joinCompetition(context.db, user.id, id, input.registrationKey || undefined);
    return redirectWithToast(context.env, here, joinMessage(code));
  }
  if (input.intent === "unregister") {
    const code = await unregisterCompetition(context.db, user.id, id);
    return redirectWithToast(context.env, here, unregisterMessage(code));
  }

  let code: SetSelectionCode | "error";
  try {
    code = await setPlayerSelection(context.db, user.id, id, input.userId, input.team);
  } catch (error) {
    console.error("set_player_selection failed:", (error as Error)?.message ?? error);
    code = "error";
  }
  const toast = setSelectionMessage(code);
  return redirectWithToast(context.env, `${here}?tab=manage-selections`, toast);
}

function tabHref(search: string, tab: string) {
  const params = new URLSearchParams(search);
  if (tab === "overview") params.delete("tab");
  else params.set("tab", tab);
  const qs = params.toString();
  return qs ? `?${qs}` : "?";
}

function Tabs({ tabs, active }: { tabs: { id: string; label: string }[]; active: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const selectId = useId();
  return (
    <>
      <nav aria-label="Competition sections" className="tabs-desktop">
        <ul className="tabs">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={tabHref(location.search, t.id)}
                aria-current={t.id === active ? "page" : undefined}
                preventScrollReset
                replace
              >
                {t.label}
              </Link>
            </li>
          ))}
          <li>
            <a href="#how-to-play">How to play</a>
          </li>
        </ul>
      </nav>
      <Form method="get" className="tabs-mobile" replace preventScrollReset>
        <label htmlFor={selectId}>Section</label>
        <div className="row">
          <select
            id={selectId}
            name="tab"
            value={active}
            onChange={(e) => navigate(tabHref(location.search, e.target.value), { replace: true, preventScrollReset: true })}
          >
            {tabs.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
          <noscript>
            <button type="submit" className="btn btn-secondary">
              Go
            </button>
          </noscript>
          <a href="#how-to-play" className="btn btn-link">
            How to play
          </a>
        </div>
      </Form>
    </>
  );
}

export default function CompetitionDetailPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { intent?: string; message?: string } | undefined;
  const navigation = useNavigation();
  const c = d.competition;
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;

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
          <p>Congratulations to {d.champion} on winning {c.name}!</p>
        </section>
      ) : null}

      <Tabs tabs={d.tabs} active={d.tab} />

      <section className="card tab-panel" aria-label={d.tabs.find((t) => t.id === d.tab)?.label}>
        {d.tab === "overview" ? (
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
              <dd data-testid="current-selection">{d.currentSelection ?? "--"}</dd>
            </dl>
            <div className="actions overview-actions">
              {d.canRegister ? (
                <Form
                  method="post"
                  className="register-form"
                  onSubmit={() =>
                    trackEvent(c.visibility === "private" ? "private_join_attempt" : "competition_register", { competition_id: c.id })
                  }
                >
                  <input type="hidden" name="intent" value="register" />
                  {c.visibility === "private" ? (
                    <Field label="Registration Key" name="registrationKey" autoComplete="off" required maxLength={50} />
                  ) : null}
                  <button className="btn btn-primary" type="submit" disabled={busyIntent === "register"}>
                    {busyIntent === "register" ? "Registering..." : "Register"}
                  </button>
                </Form>
              ) : null}
              {d.canUnregister ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="unregister" />
                  <button className="btn btn-danger" type="submit" disabled={busyIntent === "unregister"}>
                    {busyIntent === "unregister" ? "Unregistering..." : "Unregister"}
                  </button>
                </Form>
              ) : null}
              {d.canSelect ? (
                <Link className="btn btn-primary" to={`/select-team/${c.id}`}>
                  {d.currentSelection ? "Edit Team" : "Select Team"}
                </Link>
              ) : null}
              {d.eliminated ? (
                <span className="badge badge-danger">Eliminated</span>
              ) : d.isMember && d.closed ? (
                <span className="badge badge-muted">Selection Closed</span>
              ) : null}
            </div>
            {actionData?.message && actionData.intent !== "set-selection" ? (
              <div className="form-error" role="alert">
                {actionData.message}
              </div>
            ) : null}
          </>
        ) : null}

        {d.tab === "details" ? (
          <dl className="kv">
            <dt>League</dt>
            <dd>{c.league}</dd>
            <dt>Season</dt>
            <dd>{c.season}</dd>
            <dt>Type</dt>
            <dd>{c.type === "season" ? "Season" : "Knockout"}</dd>
            <dt>Status</dt>
            <dd>{capitalise(c.status)}</dd>
          </dl>
        ) : null}

        {d.tab === "prizes" ? (
          <div>
            <h2>Prizes</h2>
            <p>{c.prize}</p>
          </div>
        ) : null}

        {d.tab === "my-selections" ? (
          <div>
            <h2>My Selections</h2>
            {d.mySelections.length === 0 ? (
              <p className="empty-state">You have not selected a team yet.</p>
            ) : (
              <table className="table responsive-table">
                <thead>
                  <tr>
                    <th scope="col">Match Day</th>
                    <th scope="col">Team</th>
                    <th scope="col">Fixture</th>
                    <th scope="col">Result / Kickoff</th>
                  </tr>
                </thead>
                <tbody>
                  {d.mySelections.map((s) => (
                    <tr key={s.matchDay}>
                      <td data-label="Match Day">{s.matchDay}</td>
                      <td data-label="Team">
                        <strong>{s.team}</strong>
                      </td>
                      <td data-label="Fixture">
                        {s.home} vs {s.away}
                      </td>
                      <td data-label="Result / Kickoff">{s.score ?? (s.postponed ? "Postponed" : s.kickoff)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        ) : null}

        {d.tab === "manage-selections" ? (
          <div>
            <h2>Manage Selections</h2>
            <p className="muted">Set a player&apos;s team for Match Day {c.currentMatchDay}.</p>
            <Form method="post" className="manage-form">
              <input type="hidden" name="intent" value="set-selection" />
              <div className="field">
                <label htmlFor="manage-player">Player</label>
                <select id="manage-player" name="userId" required defaultValue="">
                  <option value="" disabled>
                    Select a player
                  </option>
                  {d.manageRows.map((p) => (
                    <option key={p.userId} value={p.userId}>
                      {p.username}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="manage-team">Team</label>
                <select id="manage-team" name="team" required defaultValue="">
                  <option value="" disabled>
                    Select a team
                  </option>
                  {d.teams.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </div>
              <button className="btn btn-primary" type="submit" disabled={busyIntent === "set-selection"}>
                {busyIntent === "set-selection" ? "Updating..." : "Update Selection"}
              </button>
              {actionData?.message && actionData.intent === "set-selection" ? (
                <div className="form-error" role="alert">
                  {actionData.message}
                </div>
              ) : null}
            </Form>
            <table className="table responsive-table">
              <caption>Players and their selection for Match Day {c.currentMatchDay}</caption>
              <thead>
                <tr>
                  <th scope="col">Player</th>
                  <th scope="col">Status</th>
                  <th scope="col">Current Selection</th>
                </tr>
              </thead>
              <tbody>
                {d.manageRows.map((p) => (
                  <tr key={p.userId}>
                    <td data-label="Player">{p.username}</td>
                    <td data-label="Status">{capitalise(p.membershipStatus)}</td>
                    <td data-label="Current Selection">
                      {p.currentSelection ?? (p.selectionHidden ? <em>Hidden</em> : "--")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>

      <section className="card" aria-labelledby="players-heading">
        <h2 id="players-heading">Registered Players</h2>
        {d.players.length === 0 ? (
          <p className="empty-state">No players have registered yet.</p>
        ) : (
          <table className="table responsive-table">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Status</th>
                <th scope="col">Joined Match Day</th>
              </tr>
            </thead>
            <tbody>
              {d.players.map((p) => (
                <tr key={p.userId}>
                  <td data-label="Username">{p.username}</td>
                  <td data-label="Status">{capitalise(p.membershipStatus)}</td>
                  <td data-label="Joined Match Day">{p.joinedMatchDay ?? "--"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={d.playersPage} pageCount={d.playersPageCount} param="playersPage" label="Registered players pages" />
      </section>

      <section className="card" aria-labelledby="standings-heading">
        <div className="card-header">
          <h2 id="standings-heading">Competition Standings</h2>
          <Link to={leaderboardPath(c)}>View All</Link>
        </div>
        {c.type === "season" ? (
          d.seasonStandings.length === 0 ? (
            <p className="empty-state">No standings yet.</p>
          ) : (
            <table className="table responsive-table standings">
              <thead>
                <tr>
                  <th scope="col">Rank</th>
                  <th scope="col">Username</th>
                  <SeasonStatHeadings />
                </tr>
              </thead>
              <tbody>
                {d.seasonStandings.map((s) => (
                  <tr key={s.userId}>
                    <td data-label="Rank">{s.rank ? ordinal(s.rank) : "--"}</td>
                    <td data-label="Username">{s.username}</td>
                    <SeasonStatCells standing={s} labelled />
                  </tr>
                ))}
              </tbody>
            </table>
          )
        ) : d.knockoutStandings.length === 0 ? (
          <p className="empty-state">No standings yet.</p>
        ) : (
          <table className="table responsive-table standings">
            <thead>
              <tr>
                <th scope="col">Player</th>
                <th scope="col">Status</th>
                <th scope="col">Knocked Out</th>
                <th scope="col">Current Selection</th>
              </tr>
            </thead>
            <tbody>
              {d.knockoutStandings.map((s) => (
                <tr key={s.userId}>
                  <td data-label="Player">{s.username}</td>
                  <td data-label="Status">{s.status}</td>
                  <td data-label="Knocked Out">{s.knockedOutOn ? `Match Day ${s.knockedOutOn}` : "--"}</td>
                  <td data-label="Current Selection">
                    {s.status === "Eliminated" ? (
                      "Eliminated"
                    ) : s.currentSelection ? (
                      s.currentSelection
                    ) : s.selectionHidden ? (
                      <em>Hidden</em>
                    ) : (
                      "--"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="fixtures-heading">
        <h2 id="fixtures-heading">Fixtures - Match Day {c.currentMatchDay}</h2>
        <FixtureList groups={d.groups} />
      </section>

      <section className="card" id="how-to-play" aria-labelledby="how-heading" tabIndex={-1}>
        <h2 id="how-heading">How to play</h2>
        <p>
          Each match day, pick one team to win from that match day&apos;s fixtures. Picks close one hour before the match
          day&apos;s first kickoff; other players&apos; picks stay hidden until then.
        </p>
        <h3>Knockout</h3>
        <ul>
          <li>You may pick each team only once in a competition.</li>
          <li>If your team wins you are still in; a draw, a loss or no pick by the deadline eliminates you.</li>
          <li>If every remaining player would be eliminated on the same match day, everyone stays in.</li>
          <li>The last player standing is the champion.</li>
        </ul>
        <h3>Season</h3>
        <ul>
          <li>Pick any team with a fixture each match day; teams may be picked again.</li>
          <li>Your team scores you 3 points for a win, 1 for a draw and 0 for a loss; its goals count as your goals for and against.</li>
          <li>Rank is by points, then goal difference, goals for and wins. The top-ranked player after the last match day is the champion.</li>
        </ul>
      </section>
    </div>
  );
}
