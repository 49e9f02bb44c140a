import { concatBytes, toBase64Url, utf8 } from "./base64url";

/**
 * Web Push message encryption (RFC 8291) in the aes128gcm content coding (RFC 8188), on WebCrypto only so it
 * runs inside workerd. One record, padding delimiter 0x02 and no padding: a reminder is far below the 4 KiB a
 * push service accepts, so splitting into records is never needed.
 */

/** Record size written in the header; the one record (plaintext + delimiter + 16-byte tag) must fit in it. */
const RECORD_SIZE = 4096;
/** Push services accept at most 4096 bytes of body (RFC 8030 section 7.2); header is 16 + 4 + 1 + 65 bytes. */
export const MAX_PLAINTEXT_BYTES = 4096 - 86 - 16 - 1;

export interface EncryptOptions {
  /** 16 random bytes by default; fixed only to reproduce a test vector. */
  salt?: Uint8Array;
  /** The application server's ECDH pair (65-byte public point, 32-byte private scalar); fresh per message by default. */
  asKeyPair?: { publicKey: Uint8Array; privateKey: Uint8Array };
}

async function hkdf(ikm: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, info: Uint8Array<ArrayBuffer>, bytes: number) {
  // WebCrypto's HKDF is Extract-then-Expand, exactly RFC 8291's two steps per derived value.
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

async function applicationServerKeys(given: EncryptOptions["asKeyPair"]) {
  if (given) {
    const jwk = pointToJwk(given.publicKey);
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      { ...jwk, d: toBase64Url(given.privateKey) },
      { name: "ECDH", namedCurve: "P-256" },
      false,
      ["deriveBits"],
    );
    return { privateKey, publicRaw: copy(given.publicKey) };
  }
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicRaw };
}

/** x and y of an uncompressed P-256 point (0x04 || x || y) as a public JWK. */
export function pointToJwk(point: Uint8Array): JsonWebKey {
  if (point.length !== 65 || point[0] !== 4) throw new TypeError("a P-256 public key must be a 65-byte uncompressed point");
  return { kty: "EC", crv: "P-256", x: toBase64Url(point.subarray(1, 33)), y: toBase64Url(point.subarray(33, 65)), ext: true };
}

/**
 * The aes128gcm body of one push message: salt || rs || idlen || as_public || AES-128-GCM(plaintext || 0x02).
 * uaPublicKey is the subscription's p256dh (65 bytes), authSecret its auth (16 bytes).
 */
export async function encryptPayload(
  plaintext: Uint8Array | string,
  uaPublicKey: Uint8Array,
  authSecret: Uint8Array,
  opts: EncryptOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const data = typeof plaintext === "string" ? utf8(plaintext) : plaintext;
  if (data.length > MAX_PLAINTEXT_BYTES) throw new RangeError(`push payload of ${data.length} bytes exceeds ${MAX_PLAINTEXT_BYTES}`);
  if (authSecret.length !== 16) throw new TypeError("the auth secret must be 16 bytes");
  const salt = opts.salt ? copy(opts.salt) : crypto.getRandomValues(new Uint8Array(16));
  if (salt.length !== 16) throw new TypeError("the salt must be 16 bytes");

  const uaKey = await crypto.subtle.importKey("raw", copy(uaPublicKey), { name: "ECDH", namedCurve: "P-256" }, false, []);
  const as = await applicationServerKeys(opts.asKeyPair);
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: uaKey }, as.privateKey, 256));

  // RFC 8291 section 3.4: the auth secret mixes into the input keying material with both public keys.
  const keyInfo = concatBytes(utf8("WebPush: info\0"), uaPublicKey, as.publicRaw);
  const ikm = await hkdf(ecdhSecret, copy(authSecret), keyInfo, 32);
  const cek = await hkdf(ikm, salt, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(ikm, salt, utf8("Content-Encoding: nonce\0"), 12);

  const aesKey = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  // 0x02: the delimiter of the last (only) record, no padding after it (RFC 8188 section 2).
  const record = concatBytes(data, new Uint8Array([2]));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, tagLength: 128 }, aesKey, record));

  const header = new Uint8Array(16 + 4 + 1);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = as.publicRaw.length;
  return concatBytes(header, as.publicRaw, ciphertext);
}
