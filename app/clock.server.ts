import type { Env } from "./env.server";

/** Cookie a test run uses to move the app's clock; honoured only when TEST_CLOCK=enabled (never in production). */
const TEST_CLOCK_COOKIE = "fc_test_now";

/** The one clock of the server: real time, or the test clock when enabled and set. */
export function readClock(request: Request, env: Env): Date {
  if (env.TEST_CLOCK === "enabled") {
    const match = (request.headers.get("Cookie") ?? "").match(new RegExp(`(?:^|;\\s*)${TEST_CLOCK_COOKIE}=([^;]+)`));
    if (match) {
      let at = new Date(Number.NaN);
      try {
        at = new Date(decodeURIComponent(match[1]));
      } catch {
        // a malformed escape reads as "no test clock"
      }
      if (!Number.isNaN(at.getTime())) return at;
    }
  }
  return new Date();
}
