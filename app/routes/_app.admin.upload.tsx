import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import type { SessionUser } from "~/db/types";
import { CsvUploadSection, type UploadResult } from "~/components/admin/CsvUploadSection";
import { useActionToast } from "~/components/admin/useActionToast";
import { CSV_MAX_BYTES, CSV_TOO_LARGE, parseFixturesCsv, uploadSummary } from "~/lib/csv";
import { intentOf, invalid, readForm, unknownIntent } from "~/lib/forms.server";
import { upsertFixtureRows } from "~/models/fixtures.server";

/** Admin panel, CSV Upload (/admin/upload): fixtures from a CSV file, with a report of the lines that failed. */

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

type Ctx = { form: FormData; user: SessionUser; context: AppLoadContext };

async function uploadCsvAction({ form, user, context }: Ctx) {
  const intent = "upload-csv";
  const fail = (message: string, status = 400) => invalid({ file: message }, message, status, { intent, ok: false as const });
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0) return fail("Please choose a CSV file.");
  if (file.size > CSV_MAX_BYTES) return fail(CSV_TOO_LARGE, 413);
  let text: string;
  try {
    text = await file.text();
  } catch {
    return fail("CSV parse error: the file could not be read.");
  }
  const parsed = parseFixturesCsv(text);
  if (!parsed.ok) return fail(parsed.message, parsed.message === CSV_TOO_LARGE ? 413 : 400);
  try {
    const saved = await upsertFixtureRows(context.db, user.id, parsed.rows);
    await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
    // the saved rows' match days: their live pages revalidate (decision 022), after the answer
    const refused = new Set(saved.failed.map((f) => f.line));
    context.notifyLive(
      parsed.rows.filter((r) => !refused.has(r.line)).map((r) => ({ league: r.league, season: r.season, matchDay: r.match_day })),
    );
    const failed = [...parsed.errors, ...saved.failed].sort((a, b) => a.line - b.line);
    return data<UploadResult>({ intent, ok: true, message: uploadSummary(saved.succeeded, failed.length), failed });
  } catch (error) {
    if (error instanceof Response) throw error;
    const code = (error as { code?: string })?.code;
    console.error("upsert_fixtures failed:", (error as Error)?.message ?? error);
    return fail(code === "42501" ? "Access denied. Admins only." : "Failed to upload fixtures.", code === "42501" ? 403 : 500);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "upload-csv":
      return uploadCsvAction({ form, user, context });
    default:
      return unknownIntent();
  }
}

export default function AdminCsvUpload() {
  const actionData = useActionData<typeof action>() as UploadResult | { intent: "unknown"; message: string } | undefined;
  useActionToast(actionData);
  return <CsvUploadSection result={actionData?.intent === "upload-csv" ? actionData : null} />;
}
