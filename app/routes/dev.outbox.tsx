import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { readOutbox } from "~/mail.server";

export const meta: MetaFunction = () => [{ title: "Outbox (development) | FootyCoach" }, { name: "robots", content: "noindex" }];

/** The local mail outbox; it does not exist in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.env.ENVIRONMENT === "production" || context.env.MAIL_PROVIDER !== "outbox") {
    throw new Response("Not found", { status: 404 });
  }
  const mails = await readOutbox(context.db);
  return { mails: mails.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })) };
}

const LINK = /(https?:\/\/[^\s]+)/g;

export default function Outbox() {
  const { mails } = useLoaderData<typeof loader>();
  return (
    <main className="container" id="main">
      <header className="page-header">
        <h1>Development outbox</h1>
        <p className="hint">Mail the app would have sent. Newest first.</p>
      </header>
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
    </main>
  );
}
