import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { usePending } from "~/components/usePending";
import { JoinNextSeason } from "~/components/competition/NextSeasonPanel";
import { formatKickoff } from "~/lib/date-format";
import { intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { listNotices, MarkReadSchema, markNoticesRead } from "~/models/notices.server";
import { requireUser, requireUserWith } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/**
 * Notices (/notices, decision 020): what a result correction changed for the player (eliminated or back in, season
 * points, Scout points), and invitations to a next season with their one-tap Join (decision 030), newest first; the navigation shows how many are unread. Marking read is a form post, so
 * opening the page (or a prefetch of it) never changes anything.
 */

export const meta: MetaFunction = () => [{ title: "Notices | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, data: notices } = await requireUserWith(request, context, (userId) => listNotices(context.db, userId));
  return { notices: notices.map((n) => ({ ...n, createdText: formatKickoff(n.createdAt, user.timeZone, { full: true }) })) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (intentOf(form) !== "read") return unknownIntent();
  const parsed = parseForm(form, MarkReadSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent: "read" });
  const changed = await markNoticesRead(context.db, user.id, parsed.data.noticeId);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  const message = parsed.data.noticeId
    ? "Notice marked as read."
    : changed === 1
      ? "1 notice marked as read."
      : `${changed} notices marked as read.`;
  return redirectWithToast(context.env, "/notices", { type: "success", message });
}

export default function NoticesPage() {
  const { notices } = useLoaderData<typeof loader>();
  const unread = notices.filter((n) => !n.read).length;
  const markingAll = usePending("read", { name: "all", value: "1" });
  return (
    <div className="container narrow notices-page">
      <header className="page-header">
        <h1>Notices</h1>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read" />
            <input type="hidden" name="all" value="1" />
            <button type="submit" className="btn btn-secondary" disabled={markingAll}>
              {markingAll ? "Saving..." : "Mark all as read"}
            </button>
          </Form>
        ) : null}
      </header>
      {notices.length === 0 ? (
        <p className="empty-state">No notices yet. When a result is corrected and it changes something for you, you will read it here.</p>
      ) : (
        <ul className="notices" aria-label="Notices">
          {notices.map((n) => (
            <li key={n.id} className={n.read ? "card notice" : "card notice is-unread"}>
              <div className="notice-meta">
                <time dateTime={n.createdAt}>{n.createdText}</time>
                {n.read ? null : <span className="badge badge-warning">New</span>}
              </div>
              <p className="notice-body">{n.body}</p>
              {n.nextSeasonId && !n.read ? <JoinNextSeason competitionId={n.nextSeasonId} /> : null}
              {n.read ? null : (
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="read" />
                  <input type="hidden" name="noticeId" value={n.id} />
                  <button type="submit" className="btn btn-link btn-sm">
                    Mark as read
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
