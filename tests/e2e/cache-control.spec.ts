/**
 * Signed-in pages are the player's own: `Cache-Control: private, no-store`, so neither a shared cache nor a
 * shared device's back button shows them to someone else (issue 18, item 7). Public pages and assets keep
 * their caching.
 */
import { expect, test } from "./fixtures";

test("signed-in pages and their data are private, no-store; public pages and assets are not", async ({ page, loginAs, request }) => {
  await loginAs("player");
  for (const path of ["/dashboard", "/competitions", "/profile", "/scout", "/dashboard.data"]) {
    const res = await page.request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(400);
    expect(res.headers()["cache-control"], path).toBe("private, no-store");
  }

  // Signed out (a fresh request context without the session cookie).
  for (const path of ["/login", "/terms"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    expect(res.headers()["cache-control"] ?? "", path).not.toContain("no-store");
  }
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["cache-control"] ?? "").not.toContain("no-store");
});
