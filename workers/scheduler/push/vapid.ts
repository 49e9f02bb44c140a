import { fromBase64Url, toBase64Url, utf8 } from "./base64url";
import { pointToJwk } from "./ece";

/**
 * VAPID (RFC 8292): an ES256 JWT per push-service origin, signed with the application server's key. Signing is
 * the expensive part of a send, so one signer keeps each audience's token and re-signs only after an hour
 * (tokens live 12 hours; RFC 8292 allows at most 24).
 */
const TOKEN_LIFETIME_SECONDS = 12 * 3600;
const RESIGN_AFTER_SECONDS = 3600;

export interface VapidConfig {
  /** The 65-byte uncompressed P-256 point, base64url (what browsers get as applicationServerKey). */
  publicKey: string;
  /** The 32-byte private scalar d, base64url. */
  privateKey: string;
  /** mailto: or https: contact of the operator, sent as the JWT's sub. */
  subject: string;
}

interface Signed {
  header: string;
  signedAt: number;
}

/** Returns authorizationFor(audience): the Authorization header value for a push-service origin. */
export function createVapidSigner(config: VapidConfig, now: () => number = () => Date.now()) {
  const publicPoint = fromBase64Url(config.publicKey);
  const jwk = pointToJwk(publicPoint);
  const d = fromBase64Url(config.privateKey);
  if (d.length !== 32) throw new TypeError("VAPID private key must be a 32-byte P-256 scalar (base64url)");
  const k = toBase64Url(publicPoint);
  let key: Promise<CryptoKey> | null = null;
  // Promises, not values: concurrent sends to one origin share one signature.
  const tokens = new Map<string, Promise<Signed>>();

  async function sign(audience: string, issuedAt: number): Promise<Signed> {
    key ??= crypto.subtle.importKey("jwk", { ...jwk, d: toBase64Url(d) }, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    const header = toBase64Url(utf8(JSON.stringify({ typ: "JWT", alg: "ES256" })));
    const claims = { aud: audience, exp: Math.floor(issuedAt / 1000) + TOKEN_LIFETIME_SECONDS, sub: config.subject };
    const unsigned = `${header}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
    // WebCrypto's ECDSA signature is r || s, the JWS (RFC 7518 section 3.4) form.
    const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, await key, utf8(unsigned)));
    return { header: `vapid t=${unsigned}.${toBase64Url(signature)}, k=${k}`, signedAt: issuedAt };
  }

  return async function authorizationFor(audience: string): Promise<string> {
    const at = now();
    const cached = tokens.get(audience);
    if (cached) {
      const signed = await cached.catch(() => null);
      if (signed && at - signed.signedAt < RESIGN_AFTER_SECONDS * 1000) return signed.header;
      // Another send may have started a fresh signature meanwhile: share it rather than sign twice.
      const current = tokens.get(audience);
      if (current && current !== cached) return (await current).header;
    }
    const pending = sign(audience, at);
    tokens.set(audience, pending);
    pending.catch(() => {
      // A failed signature (a bad key) is not kept, so the next send tries again.
      if (tokens.get(audience) === pending) tokens.delete(audience);
      key = null;
    });
    return (await pending).header;
  };
}
