import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the push service Chromium talks to from its browser process (Google's GCM: device
 * check-in and registration). Headless Chromium cannot reach it offline, so PushManager.subscribe would hang;
 * Chromium's own switches --gcm-checkin-url and --gcm-registration-url point it here instead. Everything in the
 * page and the service worker stays real: the subscription, its keys and the endpoint come from Chromium.
 *
 * Check-in answers an AndroidCheckinResponse protobuf (stats_ok, android_id, security_token); registration
 * answers "token=<id>", which Chromium turns into the subscription's endpoint https://.../fcm/send/<id>.
 */
export interface FakePushService {
  url: string;
  registrations: string[];
  /** Milliseconds the registration answer waits (to see the page's working state). */
  registerDelayMs: number;
  chromiumArgs: string[];
  stop(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const registrations: string[] = [];
  const state = { registerDelayMs: 0 };
  const fixed64 = (tag: number, n: bigint) => {
    const b = Buffer.alloc(9);
    b[0] = tag;
    b.writeBigUInt64LE(n, 1);
    return b;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      if (req.url?.startsWith("/checkin")) {
        // field 1 stats_ok = true; field 7 android_id (fixed64); field 8 security_token (fixed64)
        const body = Buffer.concat([Buffer.from([0x08, 0x01]), fixed64(0x39, 4242424242n), fixed64(0x41, 7373737373n)]);
        res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end(body);
        return;
      }
      if (req.url?.startsWith("/register")) {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const token = `e2e-${Math.random().toString(36).slice(2, 12)}`;
        // Only Web Push registrations (X-subtype wp:<origin>...) are ours to record.
        if (form.get("X-subtype")?.startsWith("wp:")) registrations.push(token);
        setTimeout(() => res.writeHead(200, { "Content-Type": "text/plain" }).end(`token=${token}`), state.registerDelayMs);
        return;
      }
      // A page on another origin (tests leave the app's pages here so no FootyCoach page is in front).
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>elsewhere</title><p>elsewhere</p>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    registrations,
    get registerDelayMs() {
      return state.registerDelayMs;
    },
    set registerDelayMs(ms: number) {
      state.registerDelayMs = ms;
    },
    chromiumArgs: [
      `--gcm-checkin-url=${url}/checkin`,
      `--gcm-registration-url=${url}/register`,
      // The message connection is not needed to subscribe; nothing listens here, so it just fails locally.
      "--gcm-mcs-endpoint=https://127.0.0.1:9",
    ],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
