/**
 * A plain, friendly status page (404, 503, other errors). Presentational only:
 * it never shows a stack trace or server detail. Links are plain <a> elements
 * so they work even when the client app is broken or not yet loaded.
 */
import type { ReactNode } from "react";
import { IconBall } from "~/components/Icons";
import { useInsideMainLandmark } from "~/components/MainLandmark";

type StatusPageProps = {
  title: string;
  message: string;
  /** Shown above the title, e.g. 404. */
  status?: number;
  /** Main link (default: /dashboard). */
  linkTo?: string;
  /** Main link text (default: "Go to Dashboard"). */
  linkLabel?: string;
  /** Optional second link. */
  secondaryLinkTo?: string;
  secondaryLinkLabel?: string;
  /** Extra content under the message. */
  children?: ReactNode;
};

export const NOT_FOUND_PAGE = {
  status: 404,
  title: "Page not found",
  message: "Sorry, we couldn't find the page you were looking for. It may have been moved, or the link may be wrong.",
} as const;

export function StatusPage({
  title,
  message,
  status,
  linkTo = "/dashboard",
  linkLabel = "Go to Dashboard",
  secondaryLinkTo,
  secondaryLinkLabel,
  children,
}: StatusPageProps) {
  // Inside the signed-in shell the page is already in its <main>; on its own (404, root errors) it is the main.
  const Frame = useInsideMainLandmark() ? "div" : "main";
  return (
    <Frame className="status-page" id={Frame === "main" ? "main" : undefined}>
      <div className="card status-card">
        <IconBall size={44} className="status-mark" />
        {status ? (
          <p className="status-code" aria-hidden="true">
            {status}
          </p>
        ) : null}
        <h1 className="status-title">{title}</h1>
        <p className="status-message">{message}</p>
        {children}
        <div className="status-actions">
          <a href={linkTo} className="btn btn-primary">
            {linkLabel}
          </a>
          {secondaryLinkTo && secondaryLinkLabel ? (
            <a href={secondaryLinkTo} className="btn btn-secondary">
              {secondaryLinkLabel}
            </a>
          ) : null}
        </div>
      </div>
    </Frame>
  );
}
