import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { IconClose } from "~/components/Icons";
import { useToast } from "~/components/Toaster";
import { trackEvent } from "~/lib/analytics.client";

/** True after hydration (JS running): forms then ask the action for data instead of a redirect. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** A link styled and announced as a button also answers the Space key, as buttons do. */
export function spaceActivates(event: React.KeyboardEvent<HTMLElement>) {
  if (event.key === " ") {
    event.preventDefault();
    event.currentTarget.click();
  }
}

const FOCUSABLE = "a[href],button:not([disabled]),input:not([disabled]):not([type='hidden']),select:not([disabled]),textarea:not([disabled])";

/**
 * A modal dialog (role="dialog", aria-modal): focus moves in on open and back on close, Tab stays inside,
 * Escape and the backdrop close it. Rendered on the server too, so it works before JS loads.
 */
export function Modal({
  title,
  onClose,
  children,
  className = "",
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = dialog?.querySelector<HTMLElement>("input:not([type='hidden']):not([disabled]),select:not([disabled])");
    (first ?? dialog)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === "Tab" && dialog) {
        const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const firstItem = items[0]!;
        const last = items[items.length - 1]!;
        if (event.shiftKey && document.activeElement === firstItem) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <div
      className="dialog-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={ref} className={`dialog ${className}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className="dialog-header">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <button type="button" className="btn-icon dialog-close" onClick={onClose} aria-label="Close">
            <IconClose size={20} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export type JoinActionData =
  | { intent: "join"; competitionId: string; code: string; toast: { type: "info" | "success" | "error"; message: string } }
  | undefined;

interface Props {
  competitionId: string;
  competitionName: string;
  /** Where the page returns after a join (the current URL without ?join). */
  redirectTo: string;
  onClose: () => void;
  /** The error of a no-JS submission (rendered by the server with the dialog open). */
  serverError?: string | null;
}

/** Enter Registration Key: the key of a private competition, then join_competition. */
export function RegistrationKeyDialog({ competitionId, competitionName, redirectTo, onClose, serverError }: Props) {
  const fetcher = useFetcher<JoinActionData>();
  const hydrated = useHydrated();
  const toast = useToast();
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  const handled = useRef<unknown>(null);
  const error = result && result.code !== "joined" && result.code !== "already_joined" ? result.toast.message : serverError ?? null;

  useEffect(() => {
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    trackEvent("private_join_attempt", { competition_id: competitionId });
    toast.show(result.toast.type, result.toast.message);
    if (result.code === "joined") {
      trackEvent("private_join_success", { competition_id: competitionId });
      trackEvent("competition_register", { competition_id: competitionId, visibility: "private" });
    }
    if (result.code === "joined" || result.code === "already_joined") onClose();
  }, [fetcher.state, result, competitionId, toast, onClose]);

  const errorId = `${competitionId}-key-error`;
  return (
    <Modal title="Enter Registration Key" onClose={onClose}>
      <fetcher.Form method="post" className="dialog-body" noValidate>
        <p className="key-dialog-name">{competitionName}</p>
        <input type="hidden" name="intent" value="join" />
        <input type="hidden" name="competitionId" value={competitionId} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {hydrated ? <input type="hidden" name="_js" value="1" /> : null}
        <div className={`field${error ? " has-error" : ""}`}>
          <label htmlFor={`${competitionId}-key`}>Registration Key</label>
          <input
            id={`${competitionId}-key`}
            name="registrationKey"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={100}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <div className="field-error" id={errorId} role="alert">
              {error}
            </div>
          ) : null}
        </div>
        <div className="dialog-actions">
          {hydrated ? (
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
          ) : (
            <a className="btn btn-secondary" href={redirectTo}>
              Cancel
            </a>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Joining..." : "Join"}
          </button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}
