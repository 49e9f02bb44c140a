import { defineConfig, devices } from "@playwright/test";

// One app for the whole run: tests/e2e/global-setup.ts builds nothing (the test command builds first),
// starts a fresh database and `wrangler dev` on this port with the test clock enabled.
process.env.E2E_PORT ??= "8799";
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  // One retry: a run once failed because `wrangler dev` reloaded its Worker during a POST ("Your worker
  // restarted mid-request", a 503 from wrangler's dev proxy, which production does not have). A test that
  // passes only on its retry is still listed as flaky in the output.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // screenshots.spec.ts's baselines, one per page and project, committed (made with Debian's Chromium on Linux).
  snapshotPathTemplate: "{testDir}/__screenshots__/{testFilePath}/{arg}-{projectName}{ext}",
  reporter: [["list"]],
  // A trace only on the retry: recording one for every test (screenshots of each step) doubled Chromium's CPU
  // on this 2-core machine and made the suite a third slower (decision 021). A failure still leaves a trace.
  use: { baseURL, trace: "on-first-retry", launchOptions: chromium, actionTimeout: 15_000 },
  projects: [
    // Layout-only tests carry @desktop-only / @mobile-only and run in their own project alone.
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
      grepInvert: /@mobile-only/,
      testIgnore: /fuzz\.spec\.ts/,
    },
    {
      // The phone: the layout audit (no clipped text at 390 px), axe on the public pages and the main player pages,
      // the phone's navigation and the main pages' screenshots. Every other spec is the same server and markup at
      // another width and runs once, at desktop size: running all of them twice made the browser suite take 26
      // minutes in CI (decision 021).
      name: "mobile",
      use: { ...devices["Pixel 5"], launchOptions: chromium },
      testMatch: /(layout-a11y|navigation|screenshots)\.spec\.ts/,
      grepInvert: /@desktop-only/,
    },
    // The fuzzer's forms may succeed with one bad field (a join with a bad redirectTo joins): it runs alone,
    // after every other test, so no other test sees what it changed.
    {
      name: "fuzz",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
      testMatch: /fuzz\.spec\.ts/,
      dependencies: ["desktop", "mobile"],
    },
  ],
});
