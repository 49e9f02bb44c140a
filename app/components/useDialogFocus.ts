import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE =
  "a[href],button:not([disabled]),input:not([disabled]):not([type='hidden']),select:not([disabled]),textarea:not([disabled])";

/**
 * Keyboard and focus behaviour of a modal dialog: on open, focus moves to the first element matching
 * `initialFocus` (else the dialog itself); Tab and Shift+Tab stay inside; Escape calls `onClose`; on close,
 * focus returns to where it was. Shared by Modal and ConfirmDialog.
 */
export function useDialogFocus(ref: RefObject<HTMLElement | null>, onClose: (() => void) | undefined, initialFocus = FOCUSABLE) {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (dialog?.querySelector<HTMLElement>(initialFocus) ?? dialog)?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" || event.key === "Esc") {
        event.preventDefault();
        closeRef.current?.();
      } else if (event.key === "Tab" && dialog) {
        const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      if (previous?.isConnected) previous.focus();
    };
  }, [ref, initialFocus]);
}
