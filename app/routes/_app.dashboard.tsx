import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = () => [{ title: "Dashboard | FootyCoach" }];

// This page's content lands with its own issue; until then it shows only its heading.
export default function Page() {
  return (
    <div className="container">
      <header className="page-header">
        <h1>Dashboard</h1>
      </header>
      <p className="empty-state">This page is coming soon.</p>
    </div>
  );
}
