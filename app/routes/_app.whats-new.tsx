import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Markdown } from "~/components/admin/Markdown";
import { dateFormat } from "~/lib/date-format";
import { seenNoteKeyCookie } from "~/lib/whats-new.server";
import { listPublishedReleaseNotes, newestPublishedNoteKey } from "~/models/release-notes.server";
import { requireUserWith } from "~/session.server";

/**
 * What's new (/whats-new): the published release notes, newest first, their Markdown rendered as the admin panel
 * renders it (raw HTML stays text, only http(s), mailto and local links). Opening the page records the newest
 * note as seen (a cookie, lib/whats-new.server.ts), which takes the "New" dot off the navigation; the nav link is
 * not prefetched, so only a real visit does that.
 */

export const meta: MetaFunction = () => [{ title: "What's new | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, data: read } = await requireUserWith(request, context, (userId) =>
    Promise.all([listPublishedReleaseNotes(context.db, userId), newestPublishedNoteKey(context.db, userId)]),
  );
  const [notes, newest] = read;
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (newest) headers.append("Set-Cookie", await seenNoteKeyCookie(context.env, user.id, newest));
  return data({ notes }, { headers });
}

function formatDate(value: string) {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

export default function WhatsNewPage() {
  const { notes } = useLoaderData<typeof loader>();
  return (
    <div className="container narrow whats-new-page">
      <header className="page-header">
        <h1>What&apos;s new</h1>
      </header>
      {notes.length === 0 ? (
        <p className="empty-state">No release notes yet. When FootyCoach gets something new, you will read about it here.</p>
      ) : (
        <ol className="whats-new-list" aria-label="Release notes">
          {notes.map((n) => (
            <li key={n.id} className="card whats-new-note">
              <article aria-labelledby={`note-${n.id}`}>
                <header className="whats-new-head">
                  <h2 id={`note-${n.id}`}>{n.title}</h2>
                  <p className="whats-new-meta">
                    <span className="badge badge-success">Version {n.version}</span>{" "}
                    <time dateTime={n.releaseDate}>{formatDate(n.releaseDate)}</time>
                  </p>
                </header>
                <Markdown>{n.content}</Markdown>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
