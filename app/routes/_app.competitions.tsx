import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useSubmit } from "@remix-run/react";
import { useCallback, useState } from "react";
import { z } from "zod";
import { CompetitionCard } from "~/components/CompetitionCard";
import { CreatePrivateCompetition, RegistrationKeyView } from "~/components/CreatePrivateCompetition";
import { Pager, pageFrom } from "~/components/Pager";
import { RegistrationKeyDialog, useHydrated, type JoinActionData } from "~/components/RegistrationKeyDialog";
import { todayIn } from "~/lib/validation";
import {
  createPrivateCompetition,
  createPrivateSchema,
  joinCompetition,
  joinMessage,
  listCompetitions,
  listFiltersFrom,
} from "~/models/competitions.server";
import {
  COMPETITION_STATUS_OPTIONS,
  LEAGUE_OPTIONS,
  REGISTRATION_OPTIONS,
  SEASON_OPTIONS,
  TYPE_OPTIONS,
  USER_STATUS_OPTIONS,
  VISIBILITY_OPTIONS,
} from "~/lib/competition-options";
import { requireUser, safeRedirect } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
import css from "~/styles/competitions.css?url";

export const meta: MetaFunction = () => [{ title: "Competitions | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const filters = listFiltersFrom(url);
  const list = await listCompetitions(context.db, user.id, filters, pageFrom(url), {
    createdId: url.searchParams.get("created"),
    joinId: url.searchParams.get("join"),
  });
  if (list.page > list.pageCount) {
    // Past the last page (e.g. a shared link after competitions closed): go to the last one.
    url.searchParams.set("page", String(list.pageCount));
    if (list.pageCount <= 1) url.searchParams.delete("page");
    throw redirect(url.pathname + url.search);
  }
  return {
    ...list,
    filters,
    serverNow: context.now.toISOString(),
    isAdmin: user.role === "admin",
    today: todayIn(context.now, user.timeZone),
  };
}

/** The list URL a form came from, without the dialog and result parameters. */
function backTo(value: FormDataEntryValue | null): string {
  const to = safeRedirect(value, "/competitions");
  const url = new URL(to, "http://x");
  url.searchParams.delete("join");
  url.searchParams.delete("created");
  url.searchParams.delete("create");
  return url.pathname + url.search;
}

const JoinSchema = z.object({
  competitionId: z.uuid(),
  registrationKey: z.string().max(100).optional(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
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
      return js ? data({ intent: "join" as const, competitionId: "", code: "not_found", toast }, { status: 400 }) : redirectWithToast(context.env, back, toast);
    }
    const { competitionId, registrationKey } = parsed.data;
    if (!user.username) throw redirect(`/setup-profile?redirectTo=${encodeURIComponent(back)}`);
    const result = await joinCompetition(context.db, user.id, competitionId, registrationKey ?? null);
    if (result.code === "no_username") throw redirect(`/setup-profile?redirectTo=${encodeURIComponent(back)}`);
    const toast = joinMessage(result);
    const payload = { intent: "join" as const, competitionId, code: result.code, toast };
    // A wrong key keeps the dialog open (rendered from this response without JS, from fetcher data with JS).
    if (result.code === "invalid_key") return data(payload, { status: 400 });
    if (js) return data(payload, { status: result.code === "error" ? 500 : 200 });
    return redirectWithToast(context.env, back, toast);
  }

  if (intent === "create-private") {
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

function Select({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (event: React.ChangeEvent<HTMLSelectElement>) => void;
}) {
  return (
    <div className="field filter-field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name} defaultValue={value} onChange={onChange}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const asOptions = (list: readonly string[]) => list.map((v) => ({ value: v, label: v }));

export default function Competitions() {
  const { competitions, total, page, pageCount, filters, serverNow, isAdmin, today, created, joinTarget } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as JoinActionData | { intent: string } | undefined;
  const location = useLocation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const [joining, setJoining] = useState<{ id: string; name: string } | null>(null);

  const params = new URLSearchParams(location.search);
  params.delete("join");
  params.delete("created");
  params.delete("create");
  const qs = params.toString();
  const here = `${location.pathname}${qs ? `?${qs}` : ""}`;
  const joinHref = (id: string) => {
    const p = new URLSearchParams(qs);
    p.set("join", id);
    return `${location.pathname}?${p.toString()}`;
  };

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

  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true });
  const formKey = `${filters.type}|${filters.league}|${filters.season}|${filters.registration}|${filters.visibility}`;

  return (
    <div className="container competitions-page">
      <header className="page-header competitions-header">
        <h1>Competitions</h1>
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

      <Form method="get" className="filters" key={formKey} aria-label="Filter competitions">
        <Select label="Type" name="type" value={filters.type} options={[{ value: "", label: "All Types" }, ...TYPE_OPTIONS]} onChange={autoSubmit} />
        <Select
          label="League"
          name="league"
          value={filters.league}
          options={[{ value: "", label: "All Leagues" }, ...asOptions(LEAGUE_OPTIONS)]}
          onChange={autoSubmit}
        />
        <Select
          label="Season"
          name="season"
          value={filters.season}
          options={[{ value: "", label: "All Seasons" }, ...asOptions(SEASON_OPTIONS)]}
          onChange={autoSubmit}
        />
        <Select label="Registration Status" name="registration" value={filters.registration} options={REGISTRATION_OPTIONS} onChange={autoSubmit} />
        <Select
          label="Visibility"
          name="visibility"
          value={filters.visibility}
          options={[{ value: "", label: "All Visibility" }, ...VISIBILITY_OPTIONS]}
          onChange={autoSubmit}
        />
        <div className="filter-buttons">
          {!hydrated ? (
            <button type="submit" className="btn btn-secondary">
              Filter
            </button>
          ) : null}
          <Link to="/competitions" className="btn btn-link" preventScrollReset>
            Reset
          </Link>
        </div>
      </Form>

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
