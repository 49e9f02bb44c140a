import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/** Title and description of a legal page (both are public pages, so search engines read the description). */
export function legalPageMeta(title: string, description: string) {
  return [{ title: `${title} | FootyCoach` }, { name: "description", content: description }];
}

/**
 * The frame the Terms and Conditions and the Privacy and Cookies Policy share: links out (readers may come
 * from the signup page, signed in or not) and one card with the title, the lead paragraph, then the sections.
 */
export function LegalPage({ title, lead, children }: { title: string; lead: ReactNode; children: ReactNode }) {
  return (
    <div className="legal-page container">
      <nav className="legal-nav" aria-label="Page links">
        <Link to="/dashboard">Back to Dashboard</Link>
        <Link to="/login">Log in</Link>
      </nav>

      <main id="main">
        <article className="card legal-card">
          <header className="legal-header">
            <h1>{title}</h1>
            <p className="lead">{lead}</p>
          </header>
          {children}
        </article>
      </main>
    </div>
  );
}
