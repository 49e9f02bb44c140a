import type { Cookie } from "@remix-run/cloudflare";

/**
 * A signed cookie's value, or null when it is absent, unsigned, tampered with or malformed. Remix's parser
 * throws on some malformed values (a bare uuid in the session cookie fails base64 decoding of the
 * signature); a bad cookie is the client's problem and must read as "no cookie", never as a 500.
 */
export async function readCookie(cookie: Cookie, request: Request): Promise<unknown> {
  try {
    return await cookie.parse(request.headers.get("Cookie"));
  } catch {
    return null;
  }
}
