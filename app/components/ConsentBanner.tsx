/**
 * Analytics consent: the banner, the shared storage of the choice and the
 * `useAnalyticsConsent()` hook used by Settings (/profile).
 *
 * - The choice lives in localStorage under `footycoach_analytics_consent`
 *   ("granted" | "denied"). A stored choice (either) hides the banner.
 * - Signed-in choices are also POSTed to /api/consent (field `consent`) so the
 *   choice follows the account; a server choice fills an empty local store.
 * - The banner renders only after hydration, so server HTML never contains it.
 * - It also mounts <AnalyticsTracker>, which loads analytics only once consent
 *   is granted and reports page views.
 */
import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { AnalyticsTracker } from "~/lib/analytics.client";
import { useStoredConsent, writeStoredConsent, type ConsentValue } from "~/lib/consent-store";
import { useHydrated } from "~/components/useHydrated";

const CONSENT_ENDPOINT = "/api/consent";

type UseAnalyticsConsentOptions = {
  /** POST the choice to /api/consent (default true: use false when signed out). */
  persistToServer?: boolean;
};

type AnalyticsConsentApi = {
  /** The stored choice; null when none has been made (and during SSR). */
  consent: ConsentValue | null;
  /** Stores the choice locally (analytics starts/stops at once) and POSTs it to /api/consent. */
  setConsent: (value: ConsentValue) => void;
  /** True while the POST (and the revalidation after it) is in flight. */
  saving: boolean;
};

/** For Settings (/profile): the same storage and POST as the banner. */
export function useAnalyticsConsent(options: UseAnalyticsConsentOptions = {}): AnalyticsConsentApi {
  const { persistToServer = true } = options;
  const consent = useStoredConsent();
  const fetcher = useFetcher();
  const submit = fetcher.submit;

  const setConsent = useCallback(
    (value: ConsentValue) => {
      writeStoredConsent(value);
      if (persistToServer) submit({ consent: value }, { method: "post", action: CONSENT_ENDPOINT });
    },
    [persistToServer, submit],
  );

  return { consent, setConsent, saving: fetcher.state !== "idle" };
}

type ConsentBannerProps = {
  signedIn: boolean;
  /** The account's stored choice (true granted, false denied), null when none or signed out. */
  serverConsent: boolean | null;
  measurementId: string;
  scriptUrl: string;
};

export function ConsentBanner({ signedIn, serverConsent, measurementId, scriptUrl }: ConsentBannerProps) {
  const hydrated = useHydrated();
  const stored = useStoredConsent();
  const fetcher = useFetcher(); // the banner's own choice
  const syncFetcher = useFetcher(); // a pre-sign-in choice copied to the account
  const submitSync = syncFetcher.submit;
  // "granted" while the Accept POST (and the revalidation after it) runs: the banner stays up showing "Saving...".
  const [pending, setPending] = useState<ConsentValue | null>(null);
  const sawBusy = useRef(false);
  const syncedRef = useRef(false);
  const restoreFocus = useRef(false);
  const bannerRef = useRef<HTMLDivElement>(null);

  const serverValue: ConsentValue | null = typeof serverConsent === "boolean" ? (serverConsent ? "granted" : "denied") : null;

  // The choice follows the account: adopt the server's choice when nothing is stored locally...
  useEffect(() => {
    if (!hydrated) return;
    if (stored === null && serverValue !== null) writeStoredConsent(serverValue);
  }, [hydrated, stored, serverValue]);

  // ...and record a choice made before signing in (e.g. on /login) on the account, once.
  useEffect(() => {
    if (!hydrated || !signedIn || syncedRef.current) return;
    if (serverConsent === null && stored !== null) {
      syncedRef.current = true;
      submitSync({ consent: stored }, { method: "post", action: CONSENT_ENDPOINT });
    }
  }, [hydrated, signedIn, serverConsent, stored, submitSync]);

  // End "Saving..." once the fetcher has been busy and is idle again.
  useEffect(() => {
    if (pending === null) return;
    if (fetcher.state !== "idle") {
      sawBusy.current = true;
      return;
    }
    if (sawBusy.current) {
      sawBusy.current = false;
      setPending(null);
    }
  }, [pending, fetcher.state]);

  // Never leave the banner stuck on "Saving..." (the choice is already stored locally).
  useEffect(() => {
    if (pending === null) return;
    const timer = window.setTimeout(() => setPending(null), 15000);
    return () => window.clearTimeout(timer);
  }, [pending]);

  const saving = pending !== null;
  const effective = stored ?? serverValue;
  const visible = hydrated && (effective === null || saving);

  // Let the page scroll clear of the fixed banner (so it never hides the last controls).
  useEffect(() => {
    const root = document.documentElement;
    const el = bannerRef.current;
    if (!visible || !el) {
      root.style.removeProperty("--consent-banner-h");
      // The keyboard was on the banner: do not drop focus to <body>.
      if (restoreFocus.current) {
        restoreFocus.current = false;
        document.getElementById("main")?.focus({ preventScroll: true });
      }
      return;
    }
    const update = () => root.style.setProperty("--consent-banner-h", `${Math.ceil(el.offsetHeight)}px`);
    // The observer calls back after the browser's own layout, before the frame is painted (its first call comes on
    // observe), where offsetHeight costs nothing: read here, it forced a layout of the whole page inside the
    // hydration task (decision 023, addendum 4). Without ResizeObserver, measure now.
    if (typeof ResizeObserver !== "function") {
      update();
      return () => root.style.removeProperty("--consent-banner-h");
    }
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--consent-banner-h");
    };
  }, [visible]);

  const choose = (value: ConsentValue) => {
    if (saving) return;
    restoreFocus.current = Boolean(bannerRef.current?.contains(document.activeElement));
    writeStoredConsent(value);
    if (signedIn) {
      syncedRef.current = true;
      sawBusy.current = false;
      if (value === "granted") setPending(value);
      fetcher.submit({ consent: value }, { method: "post", action: CONSENT_ENDPOINT });
    }
  };

  return (
    <>
      {hydrated ? <AnalyticsTracker measurementId={measurementId} scriptUrl={scriptUrl} /> : null}
      {visible ? (
        <div ref={bannerRef} className="consent-banner" role="region" aria-label="Analytics consent">
          <div className="consent-body">
            <p className="consent-text">
              Can we use analytics cookies to help improve FootyCoach? You can change your choice at any time in Settings.
            </p>
            <p className="consent-more">
              <Link to="/privacy">How we use cookies</Link>
            </p>
          </div>
          <div className="consent-actions">
            <button type="button" className="btn btn-secondary" onClick={() => choose("denied")} aria-disabled={saving || undefined}>
              Decline
            </button>
            <button type="button" className="btn btn-primary" onClick={() => choose("granted")} aria-disabled={saving || undefined}>
              {saving ? "Saving..." : "Accept"}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
