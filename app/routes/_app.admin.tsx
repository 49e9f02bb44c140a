import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { NavLink, Outlet } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import { ADMIN_SECTIONS } from "~/components/admin/sections";
import { AppErrorBoundary } from "~/components/AppErrorBoundary";
import css from "~/styles/admin.css?url";

export const meta: MetaFunction = () => [{ title: "Admin Panel | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

/**
 * The admin panel's frame: title and section tabs around one section route. The role is checked here for the
 * frame, and again by every section's own loader and action (loaders run in parallel: a child never relies on
 * this one for its security).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function AdminLayout() {
  return (
    <div className="container admin-page">
      <header className="page-header">
        <h1>Admin Panel</h1>
      </header>
      <nav aria-label="Admin sections" className="admin-tabs">
        <ul className="tabs">
          {ADMIN_SECTIONS.map((s) => (
            <li key={s.id}>
              <NavLink to={s.path} preventScrollReset>
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <AppErrorBoundary />;
}
