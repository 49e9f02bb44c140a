import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { typeLabel } from "~/components/CompetitionCard";
import { Pager, pageFrom } from "~/components/Pager";
import { useHydrated } from "~/components/RegistrationKeyDialog";
import {
  listMyCompetitions,
  myFiltersFrom,
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
import { requireUser } from "~/session.server";
import css from "~/styles/competitions.css?url";

export const meta: MetaFunction = () => [{ title: "My Competitions | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const filters = myFiltersFrom(url);
  const list = await listMyCompetitions(context.db, user.id, filters, pageFrom(url));
  if (list.page > list.pageCount) {
    if (list.pageCount <= 1) url.searchParams.delete("page");
    else url.searchParams.set("page", String(list.pageCount));
    throw redirect(url.pathname + url.search);
  }
  return { ...list, filters };
}

const asOptions = (list: readonly string[]) => list.map((v) => ({ value: v, label: v }));

function FilterSelect({
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

export default function MyCompetitions() {
  const { competitions, page, pageCount, filters, noActive } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const loading = useNavigation().state === "loading";
  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement>) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true });
  const formKey = Object.values(filters).join("|");

  return (
    <div className="container competitions-page">
      <header className="page-header">
        <h1>My Competitions</h1>
      </header>

      <Form method="get" className="filters" key={formKey} aria-label="Filter my competitions">
        <FilterSelect label="Type" name="type" value={filters.type} options={[{ value: "", label: "All Types" }, ...TYPE_OPTIONS]} onChange={autoSubmit} />
        <FilterSelect
          label="League"
          name="league"
          value={filters.league}
          options={[{ value: "", label: "All Leagues" }, ...asOptions(LEAGUE_OPTIONS)]}
          onChange={autoSubmit}
        />
        <FilterSelect
          label="Season"
          name="season"
          value={filters.season}
          options={[{ value: "", label: "All Seasons" }, ...asOptions(SEASON_OPTIONS)]}
          onChange={autoSubmit}
        />
        <FilterSelect
          label="User Status"
          name="status"
          value={filters.userStatus}
          options={[{ value: "", label: "All User Statuses" }, ...USER_STATUS_OPTIONS]}
          onChange={autoSubmit}
        />
        <FilterSelect
          label="Competition Status"
          name="competitionStatus"
          value={filters.competitionStatus}
          options={[{ value: "", label: "All Competition Statuses" }, ...COMPETITION_STATUS_OPTIONS]}
          onChange={autoSubmit}
        />
        <div className="filter-buttons">
          {!hydrated ? (
            <button type="submit" className="btn btn-secondary">
              Filter
            </button>
          ) : null}
          {/* Reset: user status active, competition status cleared (spec: differs from the first visit's default). */}
          <Link to="/my-competitions?status=active&competitionStatus=" className="btn btn-link" preventScrollReset>
            Reset
          </Link>
        </div>
      </Form>

      {loading ? (
        <p className="visually-hidden" role="status">
          Loading competitions...
        </p>
      ) : null}

      {competitions.length === 0 ? (
        noActive ? (
          <div className="empty-state">
            <p>You have no active competitions. Go to the competitions section now to keep up with the game.</p>
            <Link to="/competitions" className="btn btn-primary">
              View Competitions
            </Link>
          </div>
        ) : (
          <p className="empty-state">You have not joined any competitions matching these filters.</p>
        )
      ) : (
        <div className="competition-grid">
          {competitions.map((c) => (
            <article key={c.id} className="card competition-card my-competition-card" aria-labelledby={`my-${c.id}-name`}>
              <header className="competition-card-header">
                <h2 className="competition-card-title" id={`my-${c.id}-name`}>
                  {c.name}
                </h2>
                <span className={`badge ${c.type === "season" ? "badge-info" : "badge-success"}`}>{typeLabel(c.type)}</span>
              </header>
              <dl className="my-competition-facts">
                <div>
                  <dt>League</dt>
                  <dd>{c.league}</dd>
                </div>
                <div>
                  <dt>Season</dt>
                  <dd>{c.season}</dd>
                </div>
                <div>
                  <dt>Match Day</dt>
                  <dd>{c.matchDay ?? "--"}</dd>
                </div>
                <div>
                  <dt>Selected Team</dt>
                  <dd>{c.currentSelection ?? "--"}</dd>
                </div>
                {c.eliminated ? (
                  <div>
                    <dt>Status</dt>
                    <dd>
                      <span className="badge badge-danger">Eliminated</span>
                    </dd>
                  </div>
                ) : null}
              </dl>
              <div className="competition-card-actions">
                <Link className="btn btn-secondary" to={`/competition/${c.id}`}>
                  View Competition
                </Link>
                {c.eliminated ? null : c.selectionClosed ? (
                  <span className="badge badge-muted">Selection Closed</span>
                ) : (
                  <Link className="btn btn-primary" to={`/select-team/${c.id}`}>
                    {c.hasSelection ? "Edit Selection" : "Select Team"}
                  </Link>
                )}
              </div>
            </article>
          ))}
        </div>
      )}

      <Pager page={page} pageCount={pageCount} label="My competitions pages" />
    </div>
  );
}
