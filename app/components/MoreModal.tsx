/**
 * The mobile "More" menu: a modal dialog with Scout, Your stats, Profile (account settings),
 * Admin Panel (admins only) and Logout.
 *
 * Accessibility: role="dialog" + aria-modal + aria-labelledby; focus moves into
 * the dialog on open, is trapped while open and returns to the opener (the More
 * button) on close; Escape, the backdrop and the Close button close it.
 * The parent (AppShell) closes it on navigation.
 */
import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import type { MouseEvent as ReactMouseEvent, RefObject } from "react";
import type { ShellUser } from "~/components/AppShell";
import { isAdminPath } from "~/components/admin/sections";
import { IconChart, IconChevronRight, IconClose, IconLogout, IconScout, IconShield, IconSparkle, IconUser } from "~/components/Icons";

type MoreModalProps = {
  open: boolean;
  onClose: () => void;
  user: ShellUser;
  /** Element that gets focus back when the dialog closes (the More button). */
  returnFocusRef?: RefObject<HTMLElement>;
  /** Release notes not yet seen: a "New" dot on What's new. */
  whatsNew?: boolean;
};

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute("inert") && el.getClientRects().length > 0,
  );
}

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "more-link active" : "more-link");

export function MoreModal({ open, onClose, user, returnFocusRef, whatsNew = false }: MoreModalProps) {
  const titleId = useId();
  const profileDescId = useId();
  const adminDescId = useId();
  const inAdmin = isAdminPath(useLocation().pathname);
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // Focus in on open, back out on close; Escape; Tab and Shift+Tab cycle inside; no page scroll behind.
  useEffect(() => {
    if (!open) return;
    const dialog = dialogRef.current;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const returnFocus = returnFocusRef?.current ?? previouslyFocused;

    const first = dialog ? focusableIn(dialog)[0] : undefined;
    (first ?? dialog)?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" || event.key === "Esc") {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === "Tab" && dialog) {
        const items = focusableIn(dialog);
        if (items.length === 0) {
          event.preventDefault();
          return;
        }
        const firstItem = items[0];
        const lastItem = items[items.length - 1];
        const active = document.activeElement;
        if (event.shiftKey && (active === firstItem || active === dialog)) {
          event.preventDefault();
          lastItem.focus();
        } else if (!event.shiftKey && active === lastItem) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    // If focus escapes (screen reader virtual cursor, programmatic focus), pull it back.
    const onFocusIn = (event: FocusEvent) => {
      if (dialog && event.target instanceof Node && !dialog.contains(event.target)) {
        (focusableIn(dialog)[0] ?? dialog).focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);

    const { body } = document;
    const previousOverflow = body.style.overflow;
    body.style.overflow = "hidden";

    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
      body.style.overflow = previousOverflow;
      if (returnFocus && returnFocus.isConnected) returnFocus.focus({ preventScroll: true });
    };
  }, [open, returnFocusRef]);

  if (!open) return null;

  const onBackdropClick = (event: ReactMouseEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget) onClose();
  };

  // The backdrop's click is a mouse shortcut (keyboards have Escape and Close), so it is presentational.
  return (
    <div className="dialog-backdrop more-backdrop" role="presentation" onClick={onBackdropClick} data-testid="more-backdrop">
      <div ref={dialogRef} className="dialog more-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className="dialog-header">
          <h2 id={titleId} className="dialog-title">
            More
          </h2>
          <button type="button" className="btn-icon dialog-close" onClick={onClose} aria-label="Close">
            <IconClose />
          </button>
        </div>

        <ul className="more-list">
          <li>
            <NavLink to="/scout" className={linkClass} prefetch="intent" onClick={onClose}>
              <IconScout className="more-icon" />
              <span className="more-text">
                <span className="more-label">Scout</span>
              </span>
              <IconChevronRight className="more-chevron" />
            </NavLink>
          </li>
          <li>
            <NavLink to="/stats" className={linkClass} prefetch="intent" onClick={onClose}>
              <IconChart className="more-icon" />
              <span className="more-text">
                <span className="more-label">Your stats</span>
              </span>
              <IconChevronRight className="more-chevron" />
            </NavLink>
          </li>
          <li>
            <NavLink to="/profile" className={linkClass} prefetch="intent" onClick={onClose} aria-describedby={profileDescId}>
              <IconUser className="more-icon" />
              <span className="more-text">
                <span className="more-label">Profile</span>
                <span className="more-desc" id={profileDescId} aria-hidden="true">
                  Account settings
                </span>
              </span>
              <IconChevronRight className="more-chevron" />
            </NavLink>
          </li>
          <li>
            <NavLink to="/whats-new" className={linkClass} onClick={onClose}>
              <IconSparkle className="more-icon" />
              <span className="more-text">
                <span className="more-label">
                  What&apos;s new
                  {whatsNew ? (
                    <span className="nav-new">
                      <span className="sr-only">, new release notes</span>
                    </span>
                  ) : null}
                </span>
              </span>
              <IconChevronRight className="more-chevron" />
            </NavLink>
          </li>
          {user.role === "admin" ? (
            <li>
              {/* A Link, not a NavLink: current on every admin section (/admin/*), not only on Results. */}
              <Link
                to="/admin/fixtures"
                className={linkClass({ isActive: inAdmin })}
                aria-current={inAdmin ? "page" : undefined}
                prefetch="intent"
                onClick={onClose}
                aria-describedby={adminDescId}
              >
                <IconShield className="more-icon" />
                <span className="more-text">
                  <span className="more-label">Admin Panel</span>
                  <span className="more-desc" id={adminDescId} aria-hidden="true">
                    Manage competitions
                  </span>
                </span>
                <IconChevronRight className="more-chevron" />
              </Link>
            </li>
          ) : null}
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="more-link more-logout">
                <IconLogout className="more-icon" />
                <span className="more-text">
                  <span className="more-label">Logout</span>
                </span>
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </div>
  );
}
