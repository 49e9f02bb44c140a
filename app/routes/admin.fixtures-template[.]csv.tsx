import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/admin.server";
import { CSV_TEMPLATE } from "~/lib/csv";

/** The fixtures CSV template (a resource route: /admin/fixtures-template.csv), for admins. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return new Response(CSV_TEMPLATE, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="fixtures-template.csv"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
