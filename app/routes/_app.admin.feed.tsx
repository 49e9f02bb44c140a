import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import type { SessionUser } from "~/db/types";
import { FeedSection } from "~/components/admin/FeedSection";
import { ADMIN_PATHS } from "~/components/admin/sections";
import { useActionToast } from "~/components/admin/useActionToast";
import { endRefusedWrite, formFields, intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { FeedFixtureSchema, feedLeagueCall, FeedLeagueSchema, loadFeed, reviewCall } from "~/models/feed.server";
import { syncMessage } from "~/models/feed-sync.server";
import type { ActionResult } from "~/models/fixtures.server";
import { redirectWithToast } from "~/toast.server";

/**
 * Admin panel, Data Feed (/admin/feed, decision 020): each league with its feed code, Link / Unlink, Sync now, the
 * last sync, what it changed and its last error; hand-entered results the feed disagrees with (Accept feed / Keep
 * mine); what the game kept against the feed. The scheduler Worker does the syncing: at once after Link or Sync now
 * when the feed's budget allows (decision 027), else at the feed tick the page names.
 */

const PATH = ADMIN_PATHS.feed;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  return loadFeed(context.db, user.id, user.timeZone, context.now);
}

type Ctx = { form: FormData; user: SessionUser; context: AppLoadContext };

async function answer(context: AppLoadContext, intent: string, result: ActionResult, echo: Record<string, string>) {
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return invalid({}, result.message, result.status, { intent, ...echo });
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, PATH, { type: "success", message: result.message });
}

async function leagueAction({ form, user, context }: Ctx, intent: "link" | "unlink" | "sync") {
  const parsed = parseForm(form, FeedLeagueSchema);
  const { league = "", season = "" } = formFields(form);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent, league, season });
  const result = await feedLeagueCall(context.db, user.id, intent, parsed.data);
  if (intent === "unlink" || !result.ok) return answer(context, intent, result, { league, season });
  // The request is saved first; then the scheduler, the only writer of feed data, syncs it at once if it can.
  await context.db.commit();
  const synced = await context.syncFeedLeague(parsed.data.league, parsed.data.season, context.now);
  const toast = syncMessage(intent, `${parsed.data.league} ${parsed.data.season}`, synced, user.timeZone, context.now);
  return redirectWithToast(context.env, PATH, toast);
}

async function reviewAction({ form, user, context }: Ctx, intent: "accept" | "keep") {
  const parsed = parseForm(form, FeedFixtureSchema);
  const fixtureId = formFields(form).fixtureId ?? "";
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent, fixtureId });
  return answer(context, intent, await reviewCall(context.db, user.id, intent, parsed.data.fixtureId), { fixtureId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  const ctx = { form, user, context };
  const intent = intentOf(form);
  switch (intent) {
    case "link":
    case "unlink":
    case "sync":
      return leagueAction(ctx, intent);
    case "accept":
    case "keep":
      return reviewAction(ctx, intent);
    default:
      return unknownIntent();
  }
}

type ActionData = { intent: string; message: string | null; league?: string; season?: string; fixtureId?: string };

export default function AdminFeed() {
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  useActionToast(actionData);
  return <FeedSection view={view} action={PATH} refused={actionData?.message ? actionData : null} />;
}
