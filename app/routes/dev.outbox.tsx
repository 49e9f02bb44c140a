import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { readOutbox, readPushOutbox } from "~/mail.server";

export const meta: MetaFunction = () => [{ title: "Outbox (development) | FootyCoach" }, { name: "robots", content: "noindex" }];

/** The local mail outbox; it does not exist in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.env.ENVIRONMENT === "production" || context.env.MAIL_PROVIDER !== "outbox") {
    throw new Response("Not found", { status: 404 });
  }
  const [mails, pushes] = await Promise.all([readOutbox(context.db), readPushOutbox(context.db)]);
  return {
    mails: mails.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })),
    pushes: pushes.map((p) => ({ ...p, created_at: new Date(p.created_at).toISOString() })),
  };
}

const LINK = /(https?:\/\/[^\s]+)/g;

export default function Outbox() {
  const { mails, pushes } = useLoaderData<typeof loader>();
  return (
    <main className="container" id="main">
      <header className="page-header">
        <h1>Development outbox</h1>
        <p className="hint">Mail the app would have sent and push notifications the scheduler kept. Newest first.</p>
      </header>
      <h2>Mail</h2>
      {mails.length === 0 ? <p className="empty-state">No mail yet.</p> : null}
      <ol className="outbox">
        {mails.map((m) => (
          <li key={m.id} className="card">
            <p>
              <strong>To:</strong> <span className="mail-to">{m.to_email}</span> · <time dateTime={m.created_at}>{m.created_at}</time>
            </p>
            <p>
              <strong>Subject:</strong> {m.subject}
            </p>
            <pre className="mail-body">
              {m.body_text.split(LINK).map((part, i) =>
                i % 2 === 1 ? (
                  <a key={i} href={part}>
                    {part}
                  </a>
                ) : (
                  part
                ),
              )}
            </pre>
          </li>
        ))}
      </ol>
      <h2>Push notifications</h2>
      {pushes.length === 0 ? <p className="empty-state">No push notifications yet.</p> : null}
      <ol className="outbox push-outbox">
        {pushes.map((p) => (
          <li key={p.id} className="card">
            <p>
              <strong>To:</strong> <span className="push-to">{p.username}</span> · <time dateTime={p.created_at}>{p.created_at}</time>
            </p>
            <p>
              <strong>{p.title}:</strong> <span className="push-body">{p.body}</span>
            </p>
            <p>
              <strong>Opens:</strong> <a href={p.link}>{p.link}</a>
            </p>
          </li>
        ))}
      </ol>
    </main>
  );
}
