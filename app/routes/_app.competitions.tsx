import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useState } from "react";
import { z } from "zod";
import { CompetitionCard } from "~/components/CompetitionCard";
import { ArchiveList } from "~/components/competition/ArchiveList";
import { listEndedCompetitions } from "~/models/archive.server";
import { CreatePrivateCompetition, RegistrationKeyView } from "~/components/CreatePrivateCompetition";
import { FilterBar } from "~/components/FilterBar";
import { Pager } from "~/components/Pager";
import { pageFrom } from "~/lib/paging";
import { RegistrationKeyDialog, type JoinActionData } from "~/components/RegistrationKeyDialog";
import { LIST_FILTER_FIELDS, listFiltersFrom } from "~/lib/competition-filters";
import { redirectPastLastPage } from "~/lib/last-page.server";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPE_VALUES, PLAYER_CREATE_DEFAULTS } from "~/lib/competition-options";
import { joinMessage } from "~/lib/outcome-messages";
import { startDateField, todayIn } from "~/lib/validation";
import { createPrivateCompetition, joinCompetition, listCompetitions } from "~/models/competitions.server";
import { readForm } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { requireSessionCookie, requireUser, requireUserWith, writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
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
    isAdmin: user.role === "admin",
    today: todayIn(context.now, user.timeZone),
  };
}

/** The list URL (filters and page) without the dialog and result parameters, plus `extra` ones. */
function listHref(pathname: string, search: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const param of ["join", "created", "create"]) params.delete(param);
  for (const [param, value] of Object.entries(extra)) params.set(param, value);
  const qs = params.toString();
  return `${pathname}${qs ? `?${qs}` : ""}`;
}

/** The list URL a form came from: where it returns. */
function backTo(value: FormDataEntryValue | null): string {
  const url = new URL(safeRedirect(value, "/competitions"), "http://x");
  return listHref(url.pathname, url.search);
}

const JoinSchema = z.object({
  competitionId: z.uuid(),
  registrationKey: z.string().max(100).optional(),
});

// ---------- private competition creation form ----------

const REQUIRED = "Please fill in all required fields.";
const MATCH_DAY = "Start Match Day must be a positive whole number.";

/** The creation form (section 5); `today` is the player's calendar date (YYYY-MM-DD). */
function createPrivateSchema(today: string, isAdmin: boolean) {
  const required = z.string({ error: REQUIRED }).trim().min(1, REQUIRED);
  return z
    .object({
      name: required.max(100, "Competition name must be at most 100 characters."),
      type: isAdmin ? z.enum(CREATE_TYPE_VALUES, { error: REQUIRED }) : z.any(),
      league: isAdmin ? z.enum(CREATE_LEAGUES, { error: REQUIRED }) : z.any(),
      season: isAdmin ? z.enum(CREATE_SEASONS, { error: REQUIRED }) : z.any(),
      startDate: startDateField(today),
      startMatchDay: required
        .regex(/^\d+$/, MATCH_DAY)
        .transform(Number)
        .refine((n) => Number.isSafeInteger(n) && n >= 1, MATCH_DAY),
    })
    .transform((v) => ({
      name: v.name,
      type: isAdmin ? (v.type as string) : PLAYER_CREATE_DEFAULTS.type,
      league: isAdmin ? (v.league as string) : PLAYER_CREATE_DEFAULTS.league,
      season: isAdmin ? (v.season as string) : PLAYER_CREATE_DEFAULTS.season,
      startDate: v.startDate,
      startMatchDay: v.startMatchDay,
    }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSessionCookie(request, context);
  const form = await readForm(request);
  const js = form.get("_js") === "1";
  const intent = form.get("intent");

  if (intent === "join") {
    const back = backTo(form.get("redirectTo"));
    const parsed = JoinSchema.safeParse({
      competitionId: form.get("competitionId") ?? "",
      registrationKey: typeof form.get("registrationKey") === "string" ? form.get("registrationKey") : undefined,
    });
    if (!parsed.success) {
      const toast = { type: "error" as const, message: "Competition not found" };
      return js
        ? data({ intent: "join" as const, competitionId: "", code: "not_found", toast }, { status: 400 })
        : redirectWithToast(context.env, back, toast);
    }
    const { competitionId, registrationKey } = parsed.data;
    // Without a username the database answers no_username (below), so the join needs no check before it.
    const result = await writeAsUser(request, context, (userId) =>
      joinCompetition(context.db, userId, competitionId, registrationKey ?? null),
    );
    await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
    if (result.code === "no_username") throw redirect(`/setup-profile?redirectTo=${encodeURIComponent(back)}`);
    const toast = joinMessage(result);
    const payload = { intent: "join" as const, competitionId, code: result.code, toast };
    // A wrong key keeps the dialog open (rendered from this response without JS, from fetcher data with JS).
    if (result.code === "invalid_key") return data(payload, { status: 400 });
    if (js) return data(payload, { status: result.code === "error" ? 500 : 200 });
    return redirectWithToast(context.env, back, toast);
  }

  if (intent === "create-private") {
    const user = await requireUser(request, context);
    const isAdmin = user.role === "admin";
    const back = safeRedirect(form.get("redirectTo"), "/competitions?create=1");
    const parsed = createPrivateSchema(todayIn(context.now, user.timeZone), isAdmin).safeParse({
      name: form.get("name") ?? "",
      type: form.get("type") ?? "",
      league: form.get("league") ?? "",
      season: form.get("season") ?? "",
      startDate: form.get("startDate") ?? "",
      startMatchDay: form.get("startMatchDay") ?? "",
    });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Please fill in all required fields.";
      const body = { intent: "create-private" as const, ok: false as const, type: "info" as const, message };
      return js ? data(body, { status: 400 }) : redirectWithToast(context.env, back, { type: "info", message });
    }
    const result = await createPrivateCompetition(context.db, user.id, parsed.data);
    await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
    if (!result.ok) {
      const body = { intent: "create-private" as const, ...result };
      const status = result.type === "info" ? 400 : 500;
      return js ? data(body, { status }) : redirectWithToast(context.env, back, { type: result.type, message: result.message });
    }
    if (js) return data({ intent: "create-private" as const, ...result });
    return redirectWithToast(context.env, `/competitions?created=${result.id}`, {
      type: "success",
      message: "Private competition created successfully!",
    });
  }

  return data({ intent: "unknown" as const }, { status: 400 });
}

export default function Competitions() {
  const loaded = useLoaderData<typeof loader>();
  return loaded.archive ? <ArchiveList archive={loaded.archive} /> : <CompetitionList />;
}

type ListData = Exclude<Awaited<ReturnType<typeof loader>>, { archive: object }>;

function CompetitionList() {
  const { competitions, total, page, pageCount, filters, serverNow, isAdmin, today, created, joinTarget } = useLoaderData<ListData>();
  const actionData = useActionData<typeof action>() as JoinActionData | { intent: string } | undefined;
  const location = useLocation();
  const navigate = useNavigate();
  const [joining, setJoining] = useState<{ id: string; name: string } | null>(null);

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
        <CreatePrivateCompetition isAdmin={isAdmin} today={today} />
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
              onOpenJoin={() => setJoining({ id: c.id, name: c.name })}
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
          redirectTo={here}
          onClose={closeJoin}
          serverError={serverError}
        />
      ) : null}
    </div>
  );
}
