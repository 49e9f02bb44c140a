import {
  COMPETITION_STATUS_OPTIONS,
  LEAGUE_OPTIONS,
  REGISTRATION_OPTIONS,
  SEASON_OPTIONS,
  TYPE_OPTIONS,
  USER_STATUS_OPTIONS,
  VISIBILITY_OPTIONS,
} from "~/lib/competition-options";
import { allOption, filterField, filtersFrom, noFilterIn, plainOptions, type Filters } from "~/lib/url-filters";

/** The filters of /competitions and /my-competitions (spec part 1 §2, §9): labels, URL parameters, defaults. */

const TYPE = filterField("type", "Type", [allOption("All Types"), ...TYPE_OPTIONS]);
const LEAGUE = filterField("league", "League", [allOption("All Leagues"), ...plainOptions(LEAGUE_OPTIONS)]);
const SEASON = filterField("season", "Season", [allOption("All Seasons"), ...plainOptions(SEASON_OPTIONS)]);

export const LIST_FILTER_FIELDS = [
  TYPE,
  LEAGUE,
  SEASON,
  // No "All" here (the spec offers Open, Closed, Completed), so the list defaults to Open.
  filterField("registration", "Registration Status", REGISTRATION_OPTIONS),
  filterField("visibility", "Visibility", [allOption("All Visibility"), ...VISIBILITY_OPTIONS]),
] as const;

export const MY_FILTER_FIELDS = [
  TYPE,
  LEAGUE,
  SEASON,
  filterField("status", "User Status", [allOption("All User Statuses"), ...USER_STATUS_OPTIONS]),
  filterField("competitionStatus", "Competition Status", [allOption("All Competition Statuses"), ...COMPETITION_STATUS_OPTIONS]),
] as const;

export type ListFilters = Filters<typeof LIST_FILTER_FIELDS>;
export type MyFilters = Filters<typeof MY_FILTER_FIELDS>;

export const listFiltersFrom = (url: URL): ListFilters => filtersFrom(url, LIST_FILTER_FIELDS);

/** The first visit (no filter in the URL) shows active competitions; "All" stays an explicit empty value. */
export function myFiltersFrom(url: URL): MyFilters {
  const filters = filtersFrom(url, MY_FILTER_FIELDS);
  return noFilterIn(url, MY_FILTER_FIELDS) ? { ...filters, competitionStatus: "active" } : filters;
}

/** The competitions list URL (filters and page) without its dialog and result parameters, plus `extra` ones. */
export function listHref(pathname: string, search: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const param of ["join", "created", "create"]) params.delete(param);
  for (const [param, value] of Object.entries(extra)) params.set(param, value);
  const qs = params.toString();
  return `${pathname}${qs ? `?${qs}` : ""}`;
}
