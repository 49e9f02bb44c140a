import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { competitionCsvLoader } from "~/loaders/competition-csv.server";

/**
 * Every pick of the competition's match days whose deadline has passed, as CSV (a resource route:
 * /competition/{id}/picks.csv), for its creator and admins.
 */
export const loader = (args: LoaderFunctionArgs) => competitionCsvLoader("picks", args);
