import { useId, useRef, type ReactNode } from "react";
import { useDialogFocus } from "~/components/useDialogFocus";

interface Props {
  title: string;
  children: ReactNode;
  /** The confirm part: usually a <Form method="post"> with the Yes button (works without JavaScript). */
  actions: ReactNode;
  /** Closes the dialog (Escape, backdrop). Without JavaScript the Cancel link in `actions` does it. */
  onCancel?: () => void;
}

/**
 * A modal confirmation: role="dialog", aria-modal, labelled by its title; focus moves to its first control,
 * stays inside while open and returns to where it was on close; Escape and the backdrop cancel.
 * It is rendered on the server too (a ?confirm= step), so it works before JavaScript loads.
 */
export function ConfirmDialog({ title, children, actions, onCancel }: Props) {
  const titleId = useId();
  const bodyId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useDialogFocus(ref, onCancel);

  // The backdrop's click is a mouse shortcut (keyboards have Escape and the Cancel action), so it is presentational.
  return (
    <div
      className="dialog-backdrop"
      role="presentation"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onCancel?.();
      }}
    >
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId} ref={ref} tabIndex={-1}>
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </div>
        <div className="dialog-body" id={bodyId}>
          {children}
        </div>
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
