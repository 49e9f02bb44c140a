import { useId, useRef, type ReactNode } from "react";
import { useDialogFocus } from "~/components/useDialogFocus";
import { IconClose } from "~/components/Icons";

/**
 * A modal dialog (role="dialog", aria-modal) with a title and a close button: focus and keys as in
 * useDialogFocus, and the backdrop closes it. Rendered on the server too, so it works before JS loads.
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
  // Fields first: a form dialog opens with the cursor in its first field.
  useDialogFocus(ref, onClose, "input:not([type='hidden']):not([disabled]),select:not([disabled])");

  // The backdrop's click is a mouse shortcut (keyboards have Escape and Close), so it is presentational.
  return (
    <div
      className="dialog-backdrop"
      role="presentation"
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
