import { useEffect, useRef } from "react";
import { useToast } from "~/components/Toaster";

// Missing input is a hint (info toast); everything else the server refused is an error. The texts of
// REQUIRED (admin-competitions.server.ts) and NOTE_REQUIRED (release-notes.server.ts), which the client
// cannot import.
const INFO_MESSAGES = new Set(["Please fill in all required fields.", "Please fill in all required fields"]);

interface ToastedResult {
  message?: string | null;
  /** Set by an action that answers with data on success (the CSV upload's report). */
  ok?: boolean;
  failed?: unknown[];
}

/**
 * An admin action's answer (an error, or the upload report) also appears as a toast once JavaScript runs,
 * once per answer. Successes that redirect carry their toast in the redirect instead.
 */
export function useActionToast(result: ToastedResult | undefined) {
  const toast = useToast();
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!result || shown.current === result) return;
    shown.current = result;
    if (result.ok === true) {
      if (result.message) toast.show(result.failed && result.failed.length > 0 ? "info" : "success", result.message);
    } else if (result.message) {
      toast.show(INFO_MESSAGES.has(result.message) ? "info" : "error", result.message);
    }
  }, [result, toast]);
}
