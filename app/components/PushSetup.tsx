import { useEffect, useState } from "react";
import { useHydrated } from "~/components/useHydrated";
import { useRevalidator } from "@remix-run/react";
import { Modal } from "~/components/Modal";
import { useToast } from "~/components/Toaster";
import { useStoredConsent } from "~/lib/consent-store";
import type { PushConfig } from "~/env.server";
import {
  BLOCKED_ALERT,
  PushPermissionError,
  clearPush,
  isForegroundMessage,
  promptSnoozed,
  pushSupported,
  readRecord,
  registerAppServiceWorker,
  setUpPush,
  snoozePrompt,
} from "~/lib/push.client";

/** Registers /sw.js once the page has loaded (every page, signed in or not): installable app, offline page. */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    const register = () => void registerAppServiceWorker();
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    return () => window.removeEventListener("load", register);
  }, []);
  return null;
}

let refreshedFor: string | null = null;

export interface PushSetupState {
  activeCompetition: boolean;
  savedPick: boolean;
  notificationsEnabled: boolean;
  fcmToken: string | null;
  fcmTokenUpdatedAt: string | null;
  config: PushConfig;
}

/** Permission errors end in the spec's alert; other failures are only logged (spec part 2 section 8). */
export function reportPushError(error: unknown) {
  if (error instanceof PushPermissionError) {
    console.error(error.message);
    window.alert(BLOCKED_ALERT);
  } else {
    console.warn("push setup failed:", error);
  }
}

/**
 * The signed-in layout's push part: the permission prompt (permission undecided, push supported, the player
 * in at least one active competition and with a saved pick, not snoozed, and never while the analytics-consent
 * banner is open: one overlay at a time), the silent refresh when permission is granted and
 * notifications are on, foreground pushes as info toasts, and clearing this browser's push on logout.
 */
export function PushSetup({ state }: { state: PushSetupState }) {
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const revalidator = useRevalidator();
  const { config, activeCompetition, savedPick, notificationsEnabled, fcmToken, fcmTokenUpdatedAt } = state;
  const usable = hydrated && config.kind !== "off" && pushSupported();
  // The consent banner is open while this browser holds no choice (it adopts the account's choice at once).
  const consentChosen = useStoredConsent() !== null;
  // Read in the browser only (after hydration): the permission and the snooze live there. Once shown, the
  // prompt stays until answered (adjusted while rendering, so it never vanishes under the player).
  const [shown, setShown] = useState(false);
  const ask = usable && consentChosen && activeCompetition && savedPick && Notification.permission === "default" && !promptSnoozed();
  if (ask && !shown) setShown(true);
  const prompt = shown && !dismissed;

  // Permission granted and notifications on: make sure this browser's subscription is saved (refresh), once
  // per page load and server state (the layout's data comes back as new objects on every navigation).
  useEffect(() => {
    if (config.kind === "off" || !pushSupported() || Notification.permission !== "granted" || !notificationsEnabled) return;
    const key = JSON.stringify([config, fcmToken, fcmTokenUpdatedAt]);
    if (refreshedFor === key) return;
    refreshedFor = key;
    setUpPush(config, { notificationsEnabled, fcmToken, fcmTokenUpdatedAt }).catch(reportPushError);
  }, [config, notificationsEnabled, fcmToken, fcmTokenUpdatedAt]);

  // A push that arrives while a page is in front is handed over by the service worker: an info toast.
  useEffect(() => {
    if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isForegroundMessage(event.data)) return;
      const { title, body } = event.data.notification;
      toast.show("info", title ? `${title}: ${body}` : body);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [toast]);

  // Logout clears this browser's subscription or token first (spec: cleared on logout), then logs out as the
  // form would have: a plain POST, so it works the same whatever happens to the clearing.
  useEffect(() => {
    if (config.kind === "off") return;
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement | null;
      if (!form || new URL(form.action, location.href).pathname !== "/logout" || !readRecord()) return;
      event.preventDefault();
      event.stopPropagation();
      const timeout = new Promise((resolve) => setTimeout(resolve, 3000));
      void Promise.race([clearPush(config, { server: true, keepalive: true }), timeout]).finally(() => form.submit());
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [config]);

  if (!prompt) return null;

  const later = () => {
    snoozePrompt();
    setDismissed(true);
  };
  const enable = async () => {
    setBusy(true);
    try {
      await setUpPush(config, { notificationsEnabled, fcmToken, fcmTokenUpdatedAt }, { force: true });
      setDismissed(true);
      revalidator.revalidate();
    } catch (error) {
      reportPushError(error);
      setDismissed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Never Miss Team Selection Deadlines" onClose={later} className="push-prompt">
      <div className="push-prompt-body">
        <p>
          Get a reminder 6 hours and 3 hours (final) before the team selection deadline, only when you have not made your selection yet.
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={later} disabled={busy}>
          Maybe Later
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void enable()} disabled={busy}>
          {busy ? "Enabling..." : "Enable Notifications"}
        </button>
      </div>
    </Modal>
  );
}
