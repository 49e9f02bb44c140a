import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The built web Worker (workers/web + build/server from `remix vite:build`) inside workerd via
 * miniflare. The database binding points at a local server that refuses every connection the way
 * PostgreSQL does while unavailable: these tests cover what the Worker does before or without the
 * database, including the 503 page when it is down.
 */
export default defineConfig({
  // app/ imports its own modules as ~/... (the Remix build resolves it through tsconfig; the workers tests import
  // app modules directly too)
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [
    cloudflareTest({
      main: "./workers/web/index.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          ENVIRONMENT: "test",
          SESSION_SECRET: "workers-test-secret-0123456789abcdef0123",
          MAIL_PROVIDER: "outbox",
        },
        hyperdrives: { HYPERDRIVE: "postgres://postgres:postgres@127.0.0.1:29399/footycoach" },
        // wrangler.toml's FEED_SYNC names the scheduler Worker (decision 027), which these tests do not run: a service
        // that cannot be called, as when the scheduler is not deployed or not running (Sync now then waits for a tick).
        serviceBindings: { FEED_SYNC: () => new Response("The scheduler Worker is not running.", { status: 503 }) },
      },
    }),
  ],
  test: {
    globalSetup: ["./tests/workers/database-down.ts"],
    include: ["tests/workers/**/*.test.ts"],
    testTimeout: 30_000,
    deps: {
      optimizer: {
        ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/react", "react", "react-dom/server", "isbot"] },
      },
    },
  },
});
