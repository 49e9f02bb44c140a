/** What a push carries (spec part 2, section 9 defaults; public/sw.js reads this shape). */
export interface PushPayload {
  title: string;
  body: string;
  icon: string;
  tag: string;
  /** Absolute URL of the page the notification opens. */
  link: string;
}

export const PUSH_DEFAULTS = { title: "FootyCoach", body: "New notification", icon: "/icon-192.png", tag: "footy-coach-fcm" } as const;

/** A Web Push subscription as stored in public.push_subscriptions. */
export interface WebPushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * What a push service answered. status 0 = no answer (network error). gone: the subscription no longer exists
 * (404/410, FCM UNREGISTERED) and must be removed; retryable: try again later (429, 5xx, no answer). A refused
 * subscription is gone too: it can never be sent to.
 */
export interface SendOutcome {
  status: number;
  gone: boolean;
  retryable: boolean;
  retryAfterSeconds: number | null;
  /** Set when the sender refused to contact the subscription at all (app/lib/push-services.ts): why. */
  refused?: string;
}

export function outcomeOf(status: number, retryAfter: string | null = null): SendOutcome {
  const seconds = retryAfter !== null && /^\d{1,6}$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : null;
  return {
    status,
    gone: status === 404 || status === 410,
    retryable: status === 0 || status === 429 || status >= 500,
    retryAfterSeconds: seconds,
  };
}
