import type { Page } from "@playwright/test";
import { expect, logIn, test, db } from "./fixtures";
import { E2E } from "./env";

/** Counts requests to the (local, intercepted) analytics script URL. */
async function watchAnalytics(page: Page) {
  const hits: string[] = [];
  await page.route(`${new URL(E2E.analyticsScriptUrl).origin}/**`, async (route) => {
    hits.push(route.request().url());
    await route.fulfill({ contentType: "text/javascript", body: "/* analytics stub */" });
  });
  return hits;
}

test("no analytics request before consent, and none after Decline", async ({ page }) => {
  const hits = await watchAnalytics(page);
  await page.goto("/login");
  const banner = page.getByRole("region", { name: "Analytics consent" });
  await expect(banner).toBeVisible();
  await page.goto("/signup");
  await page.goto("/terms");
  expect(hits).toEqual([]);

  await banner.getByRole("button", { name: "Decline" }).click();
  await expect(banner).toBeHidden();
  await page.reload();
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Analytics consent" })).toBeHidden();
  expect(hits).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("footycoach_analytics_consent"))).toBe("denied");
});

test("Accept loads analytics with IP anonymisation and sends page views on route changes", async ({ page, loginAs }) => {
  const hits = await watchAnalytics(page);
  const { email } = await loginAs("player");
  await page.goto("/dashboard");
  expect(hits).toEqual([]);
  await page.getByRole("region", { name: "Analytics consent" }).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("region", { name: "Analytics consent" })).toBeHidden();
  await expect.poll(() => hits.length).toBeGreaterThan(0);
  expect(hits[0]).toContain(`id=${E2E.measurementId}`);

  const layer = () => page.evaluate(() => JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []));
  expect(await layer()).toContain("anonymize_ip");
  await page.getByRole("link", { name: "Competitions", exact: true }).first().click();
  await expect(page).toHaveURL(/\/competitions$/);
  await expect.poll(async () => (await layer()).match(/page_view/g)?.length ?? 0).toBeGreaterThanOrEqual(1);

  // Signed in, the choice is also kept on the profile.
  await expect
    .poll(
      async () =>
        (await db()`select p.analytics_consent from profiles p join account.accounts a using (id) where a.email = ${email}`)[0]
          ?.analytics_consent,
    )
    .toBe(true);

  // A new browser of the same player adopts the stored choice after logging in through the page (no banner).
  const other = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
  const second = await other.newPage();
  await logIn(second, email);
  await expect(second).toHaveURL(/\/dashboard$/);
  await expect(second.getByRole("region", { name: "Analytics consent" })).toBeHidden();
  await other.close();
});

test("on a phone the banner neither moves the login card nor hides its last link", async ({ page }) => {
  // Lighthouse's phone: the card is centred with room to spare.
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto("/login");
  const card = page.locator("main#main");
  const banner = page.getByRole("region", { name: "Analytics consent" });
  await expect(banner).toBeVisible();
  const withBanner = (await card.boundingBox())!.y;
  // Scrolled to the end, the page's last link clears the fixed banner.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const last = card.getByRole("link").last();
  const [linkBox, bannerBox] = [await last.boundingBox(), await banner.boundingBox()];
  expect(linkBox!.y + linkBox!.height).toBeLessThanOrEqual(bannerBox!.y);
  // The card sits where it would without the banner (the banner arrives after the first paint: a shift otherwise).
  await page.evaluate(() => window.scrollTo(0, 0));
  const atTop = (await card.boundingBox())!.y;
  await banner.getByRole("button", { name: "Decline" }).click();
  await expect(banner).toBeHidden();
  expect((await card.boundingBox())!.y).toBe(atTop);
  expect(atTop).toBe(withBanner);
});

// Issue 31: axe once found the banner's Accept button (.btn-primary) below contrast on a page audited while the
// banner, mounted at hydration, was still fading in. Entrances that carry text now move without fading: at every
// moment of the animation the banner's text has its full contrast.
test("the banner's text has full contrast at every moment of its entrance", async ({ page }) => {
  await page.goto("/login");
  const banner = page.getByRole("region", { name: "Analytics consent" });
  await expect(banner).toBeVisible();
  const opacities = await banner.evaluate((el) => {
    const seen: number[] = [];
    // Play the entrance again (it has ended by the time the banner is found), paused at a few moments of it.
    const banner = el as HTMLElement;
    banner.style.animation = "none";
    void banner.offsetWidth;
    banner.style.animation = "";
    for (const animation of el.getAnimations()) {
      animation.pause();
      const duration = Number(animation.effect?.getComputedTiming().duration ?? 0);
      for (const at of [0, 0.25, 0.5, 0.75]) {
        animation.currentTime = duration * at;
        seen.push(Number(getComputedStyle(el).opacity));
      }
      animation.finish();
    }
    return seen;
  });
  expect(opacities.length, "the banner has an entrance animation").toBeGreaterThan(0);
  expect(opacities, "the banner's opacity through its entrance").toEqual(opacities.map(() => 1));
});
