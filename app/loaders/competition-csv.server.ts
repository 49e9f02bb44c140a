import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isUuid } from "~/lib/ids";
import { exportCompetitionCsv, type ExportKind } from "~/models/exports.server";
import { requireUserWith } from "~/session.server";

/** Where a refused download says why (a plain answer: the request came from a download link, not a page). */
function refusal(status: 403 | 404): Response {
  const text = status === 404 ? "Competition not found" : "Only the competition's creator and admins can download it.";
  return new Response(text, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
  });
}

/**
 * The loader of /competition/{id}/standings.csv and /competition/{id}/picks.csv (decision 030): the signed-in
 * creator's or admin's download, streamed as it is read; 404 for an id that is no knockout or season competition,
 * 403 for anyone else. The answer is never stored by a cache.
 */
export async function competitionCsvLoader(kind: ExportKind, { request, params, context }: LoaderFunctionArgs): Promise<Response> {
  const competitionId = params.competitionId;
  if (!isUuid(competitionId)) return refusal(404);
  const { data: answer } = await requireUserWith(request, context, (userId) =>
    exportCompetitionCsv(context.db, userId, competitionId, kind),
  );
  if (answer.status !== 200) return refusal(answer.status);
  return new Response(answer.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${answer.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
