const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True for a state-changing request that a browser sent from another site. Browsers send Origin on
 * every POST; Sec-Fetch-Site covers the rare cases where Origin is "null" or absent. Requests from
 * non-browser clients carry neither and cannot ride on a victim's cookies, so they pass.
 */
export function isCrossSiteMutation(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && site !== "same-origin" && site !== "none";
}
