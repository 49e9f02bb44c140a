/**
 * Analytics (gtag), loaded only after the player has granted consent.
 *
 * Nothing here runs on the server: Remix replaces every export of a `.client`
 * module with `undefined` in the server build. So never render
 * <AnalyticsTracker> during SSR; <ConsentBanner> already renders it after
 * hydration (use that, or guard: `typeof AnalyticsTracker === "function"`).
 *
 * Nothing requests `scriptUrl` before consent: the script tag is created only by
 * loadAnalytics(), which refuses unless consent is "granted".
 */
import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { readStoredConsent, useStoredConsent } from "~/lib/consent-store";

type Gtag = (...args: unknown[]) => void;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

let loadedId: string | null = null;
let lastPageViewKey: string | null = null;

function withIdParam(scriptUrl: string, measurementId: string): string {
  return `${scriptUrl}${scriptUrl.includes("?") ? "&" : "?"}id=${encodeURIComponent(measurementId)}`;
}

/** True once loadAnalytics has set up gtag (and consent is still granted). */
function isAnalyticsActive(): boolean {
  return loadedId !== null && readStoredConsent() === "granted" && typeof window.gtag === "function";
}

/**
 * Injects `<script async src="{scriptUrl}?id={measurementId}">` and configures gtag
 * with IP anonymisation and no automatic page view. Idempotent. Returns whether
 * analytics is loaded. Does nothing without a measurement id or without granted consent.
 */
function loadAnalytics(measurementId: string, scriptUrl: string): boolean {
  if (typeof window === "undefined" || typeof document === "undefined") return false;
  if (!measurementId || !scriptUrl) return false;
  if (readStoredConsent() !== "granted") return false;
  if (loadedId !== null) {
    (window as unknown as Record<string, unknown>)[`ga-disable-${loadedId}`] = false;
    return true;
  }

  window.dataLayer = window.dataLayer ?? [];
  if (typeof window.gtag !== "function") {
    // gtag.js reads the `arguments` object itself, so this must be a plain function.
    window.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
  }
  (window as unknown as Record<string, unknown>)[`ga-disable-${measurementId}`] = false;
  window.gtag("js", new Date());
  window.gtag("config", measurementId, { anonymize_ip: true, send_page_view: false });

  const src = withIdParam(scriptUrl, measurementId);
  const already = Array.from(document.scripts).some((s) => s.getAttribute("src") === src);
  if (!already) {
    const script = document.createElement("script");
    script.async = true;
    script.src = src;
    script.dataset.analytics = "gtag";
    document.head.appendChild(script);
  }
  loadedId = measurementId;
  return true;
}

/**
 * Called when consent is withdrawn: stops gtag sending (GA's documented
 * `ga-disable-<id>` switch) and removes the analytics cookies (_ga, _ga_*, _gid).
 * A loaded script cannot be unloaded; it stays silent until consent is granted again.
 */
function disableAnalytics(): void {
  if (typeof window === "undefined") return;
  if (loadedId) (window as unknown as Record<string, unknown>)[`ga-disable-${loadedId}`] = true;
  try {
    const names = document.cookie
      .split(";")
      .map((c) => c.split("=")[0]?.trim() ?? "")
      .filter((name) => name === "_gid" || name === "_gat" || name === "_ga" || name.startsWith("_ga_"));
    if (names.length === 0) return;
    const parts = window.location.hostname.split(".");
    const domains = [""];
    for (let i = 0; i < parts.length - 1; i += 1) domains.push(`; domain=.${parts.slice(i).join(".")}`);
    for (const name of names) {
      for (const domain of domains) {
        document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain}`;
      }
    }
  } catch {
    // Cookie access can be blocked; nothing else to clean up.
  }
}

/** Sends a page_view event; a no-op without consent or before loadAnalytics succeeded. */
function trackPageView(path: string): void {
  if (!isAnalyticsActive()) return;
  window.gtag!("event", "page_view", {
    page_path: path,
    page_location: `${window.location.origin}${path}`,
    page_title: document.title,
  });
}

/** Sends a named event (e.g. competition_register); a no-op without consent or before loading. */
export function trackEvent(name: string, params: Record<string, unknown> = {}): void {
  if (!isAnalyticsActive()) return;
  window.gtag!("event", name, params);
}

/** React hook: the stored consent choice, updated when it changes (this tab or another). */

type AnalyticsTrackerProps = { measurementId: string; scriptUrl: string };

/**
 * Loads analytics once consent is granted (also when granted later, from the
 * banner or Settings) and sends a page_view on every route change. Renders nothing.
 * Safe to mount more than once: each location is reported once.
 */
export function AnalyticsTracker({ measurementId, scriptUrl }: AnalyticsTrackerProps): null {
  const consent = useStoredConsent();
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (consent === "denied") {
      disableAnalytics();
      return;
    }
    if (consent !== "granted" || !measurementId) return;
    if (!loadAnalytics(measurementId, scriptUrl)) return;
    const key = `${location.key}|${path}`;
    if (key === lastPageViewKey) return;
    lastPageViewKey = key;
    trackPageView(path);
  }, [consent, measurementId, scriptUrl, location.key, path]);

  return null;
}
