import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { myDataJson } from "~/models/my-data.server";
import { requireUserWith } from "~/session.server";

/**
 * GET /profile/data: "download my data" (rules file, "Your account and your data"; decision 029). One JSON file of
 * everything stored about the signed-in player, as an attachment; only for that player (signed out: the login page),
 * never stored by a cache on the way.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { data } = await requireUserWith(request, context, (userId) => myDataJson(context.db, userId));
  return new Response(data, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="footycoach-data.json"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
