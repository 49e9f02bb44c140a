import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireAdmin } from "~/admin.server";

export const meta: MetaFunction = () => [{ title: "Admin Panel | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

// Results, competition creation, CSV upload and release notes land with the admin issue.
export default function AdminFixtures() {
  return (
    <div className="container">
      <header className="page-header">
        <h1>Admin Panel</h1>
      </header>
      <p className="empty-state">This page is coming soon.</p>
    </div>
  );
}
