/**
 * Catch-all route: any URL no other route matches gets a friendly 404 page
 * (HTTP status 404) with a link to the dashboard.
 */
import { data } from "@remix-run/cloudflare";
import type { MetaFunction } from "@remix-run/cloudflare";
import { NOT_FOUND_PAGE, StatusPage } from "~/components/StatusPage";

export const meta: MetaFunction = () => [{ title: "Page not found | FootyCoach" }, { name: "robots", content: "noindex" }];

export function loader() {
  return data({ notFound: true }, { status: 404 });
}

// Unknown URLs answer 404 to every method, not 405.
export function action() {
  return data({ notFound: true }, { status: 404 });
}

export default function NotFoundRoute() {
  return (
    <StatusPage
      status={NOT_FOUND_PAGE.status}
      title={NOT_FOUND_PAGE.title}
      message={NOT_FOUND_PAGE.message}
      linkTo="/dashboard"
      linkLabel="Go to Dashboard"
    />
  );
}
