import type { FetcherWithComponents } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useHydrated } from "~/components/useHydrated";

interface Props<T> {
  fetcher: FetcherWithComponents<T>;
  /** The route whose action takes the post; the current route when left out. */
  action?: string;
  intent: string;
  /** Where the action redirects after a post made without JavaScript. */
  redirectTo: string;
  /** Where Cancel leads before JavaScript runs (a plain link back, since `onCancel` cannot run yet). */
  cancelHref: string;
  onCancel: () => void;
  submitLabel: string;
  /** The submit button's label while the post is under way (the button is disabled meanwhile). */
  busyLabel: string;
  /** The form's own fields (and hidden inputs). */
  children: ReactNode;
}

/**
 * The form inside a modal dialog (see Modal), working with and without JavaScript. Without it the form posts
 * and the action redirects to `redirectTo` (with a toast); with it the hidden `_js` field asks the action for
 * data instead, which the owner reads with useFetcherResult. It ends with Cancel and the submit button, which is
 * disabled and shows `busyLabel` while the post is under way.
 */
export function DialogForm<T>({ fetcher, action, intent, redirectTo, cancelHref, onCancel, submitLabel, busyLabel, children }: Props<T>) {
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={action} className="dialog-body" noValidate>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {hydrated ? <input type="hidden" name="_js" value="1" /> : null}
      {children}
      <div className="dialog-actions">
        {hydrated ? (
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : (
          <a className="btn btn-secondary" href={cancelHref}>
            Cancel
          </a>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </fetcher.Form>
  );
}

/**
 * Calls `onResult` once for each new result of `fetcher`, when the post has settled. Called by the dialog's
 * owner (not inside DialogForm) so a result still arrives when the dialog was closed while it was posting.
 */
export function useFetcherResult<T>(fetcher: { state: string; data: T | undefined }, onResult: (result: T) => void) {
  const handled = useRef<unknown>(null);
  const latest = useRef(onResult);
  useEffect(() => {
    latest.current = onResult;
  });
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    latest.current(result);
  }, [fetcher.state, fetcher.data]);
}
