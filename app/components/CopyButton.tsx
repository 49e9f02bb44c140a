import { useEffect, useRef, useState } from "react";

interface Props {
  text: string;
  /** Accessible name of the button (default "Copy"). */
  label?: string;
  className?: string;
}

const FEEDBACK_MS = 1500;

/** Copies `text` to the clipboard and shows "Copied!" or "Failed to copy" for 1.5 s (spec §9). */
export function CopyButton({ text, label = "Copy", className = "btn btn-secondary btn-sm" }: Props) {
  const [feedback, setFeedback] = useState<"Copied!" | "Failed to copy" | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    let ok = false;
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        ok = true;
      }
    } catch {
      ok = false;
    }
    setFeedback(ok ? "Copied!" : "Failed to copy");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setFeedback(null), FEEDBACK_MS);
  }

  return (
    <span className="copy-button">
      <button type="button" className={className} onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span className={`copy-feedback${feedback === "Failed to copy" ? " is-error" : ""}`} role="status" aria-live="polite">
        {feedback ?? ""}
      </span>
    </span>
  );
}
