import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { competitionCsvLoader } from "~/loaders/competition-csv.server";

/** The competition's standings as CSV (a resource route: /competition/{id}/standings.csv), for its creator and admins. */
export const loader = (args: LoaderFunctionArgs) => competitionCsvLoader("standings", args);
