import { generateKeyPairSync } from "node:crypto";
import { buildSync } from "esbuild";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { generateVapidKeys } from "./scripts/vapid-keys";
import { defineConfig } from "vitest/config";
import { SCHEDULER_DB_PORT, SCHEDULER_DB_NAME } from "./tests/scheduler/ports";
import { WEB_PUSH_SERVER_PORT, FCM_SERVER_PORT, FCM_TEST_PROJECT } from "./tests/scheduler/ports";
import { FOOTBALL_DATA_PORT, FOOTBALL_DATA_TEST_TOKEN } from "./tests/scheduler/ports";

/**
 * The scheduler Worker (workers/scheduler) inside workerd via miniflare, on a real Postgres with the real
 * migrations (tests/scheduler/global-db.ts) and local push services that speak the real protocols
 * (tests/scheduler/global-push-servers.ts) and football-data.org v4 (tests/scheduler/global-feed-server.ts). Ports are fixed because the bindings are read before global setup runs.
 */
// The FCM service account of the run: a fresh RSA key, never stored. The local FCM server checks tokens
// signed with it (global setup reads the public half from the environment of this process).
const fcmKey = generateKeyPairSync("rsa", { modulusLength: 2048 });
process.env.SCHEDULER_TEST_FCM_PUBLIC_KEY = fcmKey.publicKey.export({ type: "spki", format: "pem" }).toString();
const serviceAccount = JSON.stringify({
  type: "service_account",
  project_id: FCM_TEST_PROJECT,
  client_email: `scheduler@${FCM_TEST_PROJECT}.iam.gserviceaccount.com`,
  private_key: fcmKey.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  token_uri: `http://127.0.0.1:${FCM_SERVER_PORT}/token`,
});
process.env.SCHEDULER_TEST_FCM_SERVICE_ACCOUNT = serviceAccount;

// The application server's VAPID key pair of the run.
const vapid = generateVapidKeys();
process.env.SCHEDULER_TEST_VAPID_PUBLIC_KEY = vapid.publicKey;

// The web Worker's LiveMatchDay objects (decision 022), which the feed job notifies through its LIVE binding
// (script_name = "footycoach-web"): the real class, bundled into an auxiliary Worker of that name.
const liveHost = buildSync({
  entryPoints: ["./tests/scheduler/live-host.ts"],
  bundle: true,
  format: "esm",
  platform: "neutral",
  external: ["cloudflare:workers"],
  write: false,
}).outputFiles[0].text;

export default defineConfig({
  plugins: [
    cloudflareTest({
      main: "./workers/scheduler/index.ts",
      wrangler: { configPath: "./workers/scheduler/wrangler.toml" },
      miniflare: {
        bindings: {
          ENVIRONMENT: "test",
          PUSH_PROVIDER: "live",
          APP_URL: "http://footycoach.test",
          PUSH_ENDPOINT_OVERRIDE: `http://127.0.0.1:${WEB_PUSH_SERVER_PORT}`,
          FCM_API_URL: `http://127.0.0.1:${FCM_SERVER_PORT}`,
          FCM_SERVICE_ACCOUNT: serviceAccount,
          VAPID_PUBLIC_KEY: vapid.publicKey,
          VAPID_PRIVATE_KEY: vapid.privateKey,
          VAPID_SUBJECT: "mailto:ops@footycoach.test",
          FOOTBALL_DATA_URL: `http://127.0.0.1:${FOOTBALL_DATA_PORT}/v4`,
          FOOTBALL_DATA_TOKEN: FOOTBALL_DATA_TEST_TOKEN,
        },
        hyperdrives: { HYPERDRIVE: `postgres://postgres:postgres@127.0.0.1:${SCHEDULER_DB_PORT}/${SCHEDULER_DB_NAME}` },
        workers: [
          {
            name: "footycoach-web",
            modules: [{ type: "ESModule", path: "live-host.mjs", contents: liveHost }],
            compatibilityDate: "2026-04-20",
            durableObjects: { LIVE: { className: "LiveMatchDay", useSQLite: true } },
          },
        ],
      },
    }),
  ],
  test: {
    globalSetup: ["./tests/scheduler/global-db.ts", "./tests/scheduler/global-push-servers.ts", "./tests/scheduler/global-feed-server.ts"],
    include: ["tests/scheduler/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
