import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import type { SessionUser } from "~/db/types";
import { ResultsSection } from "~/components/admin/ResultsSection";
import { ADMIN_PATHS, movedSectionUrl } from "~/components/admin/sections";
import { useActionToast } from "~/components/admin/useActionToast";
import { CREATE_LEAGUES, CREATE_SEASONS } from "~/lib/competition-options";
import { endRefusedWrite, formFields, intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { loadResults } from "~/models/admin-results.server";
import { REASON_MAX, saveResult, setLiveScore, setPostponed, type ActionResult } from "~/models/fixtures.server";
import { redirectWithToast } from "~/toast.server";
import { z } from "zod";

/** Admin panel, Results (/admin/fixtures): a match day's fixtures, save a result (locked until Edit), postpone. */

const PATH = ADMIN_PATHS.results;

const SCORE_MESSAGE = "Scores must be whole numbers from 0 to 30.";

const score = z
  .string({ error: SCORE_MESSAGE })
  .trim()
  .regex(/^\d{1,2}$/, SCORE_MESSAGE)
  .transform(Number)
  .refine((n) => n >= 0 && n <= 30, SCORE_MESSAGE);

/** Optional here: the database decides when it is required (correcting a complete result). */
const reason = z
  .string()
  .trim()
  .max(REASON_MAX, `The reason must be at most ${REASON_MAX} characters.`)
  .optional()
  .transform((v) => (v ? v : null));

const SaveResultSchema = z.object({
  fixtureId: z.string().regex(/^\d{1,15}$/, "Fixture not found."),
  homeScore: score,
  awayScore: score,
  reason,
});

const PostponeSchema = z.object({
  fixtureId: z.string().regex(/^\d{1,15}$/, "Fixture not found."),
  postponed: z.enum(["true", "false"]).transform((v) => v === "true"),
  reason,
});

const LiveScoreSchema = z
  .object({
    fixtureId: z.string().regex(/^\d{1,15}$/, "Fixture not found."),
    liveStatus: z.enum(["IN_PLAY", "PAUSED", "clear"], { error: "Unknown live state." }),
    homeScore: z.string().optional(),
    awayScore: z.string().optional(),
  })
  .transform((v, ctx) => {
    if (v.liveStatus === "clear") return { fixtureId: v.fixtureId, liveStatus: null, homeScore: null, awayScore: null };
    const home = score.safeParse(v.homeScore ?? "");
    const away = score.safeParse(v.awayScore ?? "");
    if (!home.success || !away.success) {
      ctx.addIssue({ code: "custom", message: SCORE_MESSAGE, path: [home.success ? "awayScore" : "homeScore"] });
      return z.NEVER;
    }
    return { fixtureId: v.fixtureId, liveStatus: v.liveStatus, homeScore: home.data, awayScore: away.data };
  });

/** After a committed change: the live pages of that match day revalidate (decision 022), after the answer. */
function tellLivePages(context: AppLoadContext, result: ActionResult) {
  if (result.ok && result.changed) context.notifyLive([result.changed]);
}

function oneOf<T extends string>(value: string | null, list: readonly T[], fallback: T): T {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : fallback;
}

const idParam = (v: string | null) => (v && /^\d{1,15}$/.test(v) ? v : null);

/** This page with a query, without the Edit unlock (and without the old single-page `section`). */
function resultsUrl(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("edit");
  params.delete("section");
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  const url = new URL(request.url);
  // The other sections used to be /admin/fixtures?section=...; those URLs keep working.
  const moved = movedSectionUrl(url);
  if (moved) throw redirect(moved);

  const q = url.searchParams;
  const md = Number(q.get("md"));
  const results = await loadResults(context.db, user.id, {
    league: oneOf(q.get("league"), CREATE_LEAGUES, "Premier League"),
    season: oneOf(q.get("season"), CREATE_SEASONS, "2025/26"),
    matchDay: Number.isInteger(md) && md >= 1 && md <= 60 ? md : null,
    team: (q.get("team") ?? "").trim().slice(0, 60),
    timeZone: user.timeZone,
  });
  return { results, editId: idParam(q.get("edit")) };
}

/** Where a results form returns to: this page only (its query kept), without the Edit unlock. */
function resultsBack(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || !(value === PATH || value.startsWith(`${PATH}?`))) return PATH;
  return resultsUrl(new URL(value, "http://x").search);
}

type Ctx = { form: FormData; user: SessionUser; context: AppLoadContext };

async function saveResultAction({ form, user, context }: Ctx) {
  const intent = "save-result";
  const fixtureId = formFields(form).fixtureId ?? "";
  const parsed = parseForm(form, SaveResultSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent, fixtureId });
  const result = await saveResult(context.db, user.id, parsed.data);
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return invalid({}, result.message, result.status, { intent, fixtureId });
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  tellLivePages(context, result);
  return redirectWithToast(context.env, resultsBack(form.get("returnTo")), { type: "success", message: result.message });
}

async function postponeAction({ form, user, context }: Ctx) {
  const intent = "postpone";
  const fixtureId = formFields(form).fixtureId ?? "";
  const parsed = parseForm(form, PostponeSchema);
  if (!parsed.ok) return invalid(parsed.errors, "Failed to update fixture.", 400, { intent, fixtureId });
  const result = await setPostponed(context.db, user.id, parsed.data);
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return invalid({}, result.message, result.status, { intent, fixtureId });
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  tellLivePages(context, result);
  return redirectWithToast(context.env, resultsBack(form.get("returnTo")), { type: "success", message: result.message });
}

async function liveScoreAction({ form, user, context }: Ctx) {
  const intent = "live-score";
  const fixtureId = formFields(form).fixtureId ?? "";
  const parsed = parseForm(form, LiveScoreSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent, fixtureId });
  const result = await setLiveScore(context.db, user.id, parsed.data);
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return invalid({}, result.message, result.status, { intent, fixtureId });
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  tellLivePages(context, result);
  return redirectWithToast(context.env, resultsBack(form.get("returnTo")), { type: "success", message: result.message });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  // A form of the old single page (/admin/fixtures?section=notes, say) is posted on to its section's page.
  const moved = movedSectionUrl(new URL(request.url));
  if (moved) return redirect(moved, 307);

  const form = await readForm(request);
  switch (intentOf(form)) {
    case "save-result":
      return saveResultAction({ form, user, context });
    case "postpone":
      return postponeAction({ form, user, context });
    case "live-score":
      return liveScoreAction({ form, user, context });
    default:
      return unknownIntent();
  }
}

type ActionData = { intent: string; message: string | null; fixtureId?: string };

export default function AdminResults() {
  const { results, editId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const location = useLocation();
  useActionToast(actionData);

  const rowError = actionData?.fixtureId ? { fixtureId: actionData.fixtureId, message: actionData.message ?? "" } : null;
  return (
    <ResultsSection
      results={results}
      editId={editId}
      here={resultsUrl(location.search)}
      action={`${PATH}${location.search}`}
      rowError={rowError}
    />
  );
}
