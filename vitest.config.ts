import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Node test projects (no Remix/Cloudflare Vite plugins here: with them vitest hangs on close).
 *   unit: pure modules (tests/unit)
 *   db:   the migrations, policies and scripts against a real database (tests/db); one server per run,
 *         started by tests/support/global-db.ts, one fresh database per test file.
 * The Workers-runtime tests have their own config (vitest.workers.config.ts).
 */
const alias = { "~": path.resolve(import.meta.dirname, "app") };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: ["tests/unit/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          environment: "node",
          include: ["tests/db/**/*.test.ts"],
          globalSetup: ["tests/support/global-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
