import type { ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { StatusPage } from "~/components/StatusPage";

type StatusHandler = (error: { status: number; data: unknown }) => ReactNode;

const DEFAULT_HANDLERS: Record<number, StatusHandler> = {
  400: () => <StatusPage status={400} title="Bad request" message="The request could not be read. Please go back and try again." />,
  403: ({ data }) => (
    <StatusPage
      status={403}
      title="Access denied"
      message={typeof data === "string" && data ? data : "You do not have access to this page."}
    />
  ),
  404: () => (
    <StatusPage status={404} title="Page not found" message="We couldn't find that page. It may have moved, or the link may be wrong." />
  ),
  503: () => (
    <StatusPage
      status={503}
      title="Temporarily unavailable"
      message="FootyCoach is temporarily unavailable. Please try again in a few minutes."
    />
  ),
};

/**
 * The one error boundary: a route passes handlers for the statuses it words differently (a competition's
 * 404, say); everything else falls back to the shared pages, and anything unexpected to the 500 page,
 * never a stack trace.
 */
export function AppErrorBoundary({ handlers = {} }: { handlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = handlers[error.status] ?? DEFAULT_HANDLERS[error.status];
    if (handler) return <>{handler(error)}</>;
  }
  return <StatusPage status={500} title="Something went wrong" message="An unexpected error occurred. Please try again." />;
}
