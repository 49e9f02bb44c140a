import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useState } from "react";
import { CompetitionCard } from "~/components/CompetitionCard";
import { ArchiveList } from "~/components/competition/ArchiveList";
import { listEndedCompetitions } from "~/models/archive.server";
import { CreatePrivateCompetition, RegistrationKeyView } from "~/components/CreatePrivateCompetition";
import { FilterBar } from "~/components/FilterBar";
import { Pager } from "~/components/Pager";
import { pageFrom } from "~/lib/paging";
import { RegistrationKeyDialog, type JoinActionData } from "~/components/RegistrationKeyDialog";
import { LIST_FILTER_FIELDS, listFiltersFrom, listHref } from "~/lib/competition-filters";
import { redirectPastLastPage } from "~/lib/last-page.server";
import { todayIn } from "~/lib/validation";
import type { CompetitionRules } from "~/lib/competition-rules";
import { safeTimeZone } from "~/lib/date-format";
import { listCompetitions } from "~/models/competitions.server";
import { createPrivate, joinFromList } from "~/loaders/competitions-actions.server";
import { intentOf, readForm } from "~/lib/forms.server";
import { requireSessionCookie, requireUserWith } from "~/session.server";
import css from "~/styles/pages/competitions.css?url";

export const meta: MetaFunction = () => [{ title: "Competitions | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("status") === "ended") {
    // The archive of ended competitions (decision 030): its own list, same page size and paging.
    const { data: archive } = await requireUserWith(request, context, (userId) => listEndedCompetitions(context.db, userId, pageFrom(url)));
    redirectPastLastPage(url, archive);
    return { archive };
  }
  const filters = listFiltersFrom(url);
  const { user, data: list } = await requireUserWith(request, context, (userId) =>
    listCompetitions(context.db, userId, filters, pageFrom(url), {
      createdId: url.searchParams.get("created"),
      joinId: url.searchParams.get("join"),
    }),
  );
  redirectPastLastPage(url, list);
  return {
    ...list,
    filters,
    serverNow: context.now.toISOString(),
    today: todayIn(context.now, user.timeZone),
    timeZone: safeTimeZone(user.timeZone),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "join":
      return joinFromList(request, context, form);
    case "create-private":
      return createPrivate(request, context, form);
    default:
      return data({ intent: "unknown" as const }, { status: 400 });
  }
}

export default function Competitions() {
  const loaded = useLoaderData<typeof loader>();
  return loaded.archive ? <ArchiveList archive={loaded.archive} /> : <CompetitionList />;
}

type ListData = Exclude<Awaited<ReturnType<typeof loader>>, { archive: object }>;

function CompetitionList() {
  const { competitions, total, page, pageCount, filters, serverNow, today, timeZone, creationOptions, created, joinTarget } =
    useLoaderData<ListData>();
  const actionData = useActionData<typeof action>() as JoinActionData | { intent: string } | undefined;
  const location = useLocation();
  const navigate = useNavigate();
  const [joining, setJoining] = useState<{ id: string; name: string; type: string; rules: CompetitionRules } | null>(null);

  const here = listHref(location.pathname, location.search);
  // The key dialog's no-JS address.
  const joinHref = (id: string) => listHref(location.pathname, location.search, { join: id });

  const urlTarget = joinTarget && new URLSearchParams(location.search).get("join") === joinTarget.id ? joinTarget : null;
  const target = joining ?? urlTarget;
  const closeJoin = useCallback(() => {
    setJoining(null);
    if (new URLSearchParams(location.search).has("join")) navigate(here, { replace: true, preventScrollReset: true });
  }, [location.search, navigate, here]);
  const serverError =
    actionData && "code" in actionData && target && actionData.competitionId === target.id && actionData.code !== "joined"
      ? actionData.toast.message
      : null;

  return (
    <div className="container competitions-page">
      <header className="page-header competitions-header">
        <h1>Competitions</h1>
        <Link className="btn btn-secondary" to="/competitions?status=ended">
          Ended competitions
        </Link>
        <CreatePrivateCompetition choices={creationOptions} timeZone={timeZone} today={today} />
      </header>

      {created ? (
        <section className="card created-result" aria-labelledby="created-title">
          <h2 id="created-title">Private competition created</h2>
          <p>
            <strong>{created.name}</strong>: share this registration key with the players you invite.
          </p>
          <RegistrationKeyView registrationKey={created.registrationKey} />
        </section>
      ) : null}

      <FilterBar fields={LIST_FILTER_FIELDS} values={filters} label="Filter competitions" resetTo="/competitions" />

      {competitions.length === 0 ? (
        <p className="empty-state">No competitions match your filters.</p>
      ) : (
        <div className="competition-grid" aria-label={`${total} competitions`}>
          {competitions.map((c) => (
            <CompetitionCard
              key={c.id}
              competition={c}
              serverNow={serverNow}
              redirectTo={here}
              joinHref={joinHref(c.id)}
              onOpenJoin={() => setJoining({ id: c.id, name: c.name, type: c.type, rules: c.rules })}
            />
          ))}
        </div>
      )}

      <Pager page={page} pageCount={pageCount} label="Competitions pages" />

      {target ? (
        <RegistrationKeyDialog
          key={target.id}
          competitionId={target.id}
          competitionName={target.name}
          competitionRules={target.type === "knockout" || target.type === "season" ? { type: target.type, rules: target.rules } : null}
          redirectTo={here}
          onClose={closeJoin}
          serverError={serverError}
        />
      ) : null}
    </div>
  );
}
