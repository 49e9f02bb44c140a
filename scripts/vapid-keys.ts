import { generateKeyPairSync } from "node:crypto";

/**
 * A fresh VAPID key pair (P-256) in the formats the Workers read (and `web-push generate-vapid-keys` prints):
 * public as the 65-byte uncompressed point, private as the 32-byte scalar, both base64url.
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  const publicKey = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString(
    "base64url",
  );
  return { publicKey, privateKey: jwk.d! };
}
