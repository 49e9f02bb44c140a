import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterBar } from "~/components/FilterBar";
import { JoinedCompetitionCard } from "~/components/JoinedCompetitionCard";
import { Pager } from "~/components/Pager";
import { pageFrom } from "~/lib/paging";
import { MY_FILTER_FIELDS, myFiltersFrom } from "~/lib/competition-filters";
import { redirectPastLastPage } from "~/lib/last-page.server";
import { listMyCompetitions } from "~/models/competitions.server";
import { requireUserWith } from "~/session.server";
import css from "~/styles/competitions.css?url";
import { PageLoading } from "~/components/PageLoading";

export const meta: MetaFunction = () => [{ title: "My Competitions | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const filters = myFiltersFrom(url);
  const { data: list } = await requireUserWith(request, context, (userId) =>
    listMyCompetitions(context.db, userId, filters, pageFrom(url)),
  );
  redirectPastLastPage(url, list);
  return { ...list, filters };
}

// Reset: user status active, competition status cleared (spec: differs from the first visit's default).
const RESET_FILTERS = "/my-competitions?status=active&competitionStatus=";

export default function MyCompetitions() {
  const { competitions, page, pageCount, filters, noActive } = useLoaderData<typeof loader>();

  return (
    <div className="container competitions-page">
      <header className="page-header">
        <h1>My Competitions</h1>
      </header>

      <FilterBar fields={MY_FILTER_FIELDS} values={filters} label="Filter my competitions" resetTo={RESET_FILTERS} />

      <PageLoading text="Loading competitions..." hidden />

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
            <JoinedCompetitionCard key={c.id} competition={c} />
          ))}
        </div>
      )}

      <Pager page={page} pageCount={pageCount} label="My competitions pages" />
    </div>
  );
}
