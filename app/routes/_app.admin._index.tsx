import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/admin.server";
import { ADMIN_PATHS } from "~/components/admin/sections";

/** /admin opens the first section, Results (an old ?section= query then goes on to its own page). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return redirect(`${ADMIN_PATHS.results}${new URL(request.url).search}`);
}
