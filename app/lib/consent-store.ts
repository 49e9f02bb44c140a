/**
 * The player's analytics-consent choice in this browser: one home for how it is stored (localStorage, with an
 * in-memory copy for browsers whose storage throws), read and watched. Used by the banner and settings
 * (ConsentBanner) and by the analytics loader (analytics.client). Safe to import on the server, where there is
 * never a stored choice.
 */
import { useSyncExternalStore } from "react";

const CONSENT_STORAGE_KEY = "footycoach_analytics_consent";
/** Window event fired (same tab) whenever the choice is written. */
const CONSENT_CHANGE_EVENT = "footycoach:analytics-consent";

export type ConsentValue = "granted" | "denied";

declare global {
  interface Window {
    /** In-memory copy of the consent choice, for browsers whose localStorage throws. */
    __footycoachConsent?: ConsentValue;
  }
}

function isConsentValue(value: unknown): value is ConsentValue {
  return value === "granted" || value === "denied";
}

/** The stored choice, or null when none (always null on the server). */
export function readStoredConsent(): ConsentValue | null {
  if (typeof window === "undefined") return null;
  try {
    const value = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    if (isConsentValue(value)) return value;
  } catch {
    // Storage blocked: use the in-memory copy.
  }
  return window.__footycoachConsent ?? null;
}

/** Stores the choice locally and notifies every listener in this tab. */
export function writeStoredConsent(value: ConsentValue): void {
  if (typeof window === "undefined") return;
  window.__footycoachConsent = value;
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, value);
  } catch {
    // Storage blocked or full: the in-memory copy keeps the choice for this page.
  }
  window.dispatchEvent(new Event(CONSENT_CHANGE_EVENT));
}

/** Calls `onChange` when the choice changes in this tab or another one; returns the unsubscribe. */
function subscribeConsent(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CONSENT_STORAGE_KEY) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CONSENT_CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CONSENT_CHANGE_EVENT, onChange);
  };
}

/** The stored choice, kept current (null during server rendering and hydration). */
export function useStoredConsent(): ConsentValue | null {
  return useSyncExternalStore(subscribeConsent, readStoredConsent, () => null);
}
