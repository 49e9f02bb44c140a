/**
 * The one guard for every post-action destination taken from a request (redirectTo on login, profile setup,
 * joining and creating competitions): only a path on this site, else the fallback.
 *
 * Refused: anything not starting with exactly one "/", backslashes (browsers read "/\evil" as "//evil"),
 * control characters and whitespace (browsers drop tab and newline from URLs, so "/\t/evil" becomes
 * "//evil"; a newline in a Location header is a 500), and anything a URL parser would resolve to another
 * origin. Over-long values are refused too.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2048) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(to)) return fallback;
  try {
    const base = "http://footycoach.invalid";
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return to;
}
