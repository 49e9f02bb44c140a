import { db, expect, test } from "./fixtures";

// The bottom bar and More modal exist on the mobile layout only: the desktop project leaves out @mobile-only.
test("mobile: bottom bar and the More modal", { tag: "@mobile-only" }, async ({ page, loginAs }) => {
  await loginAs("player");
  await page.goto("/dashboard");
  await expect(page.getByRole("banner").getByText("FootyCoach")).toBeVisible();
  const more = page.getByRole("button", { name: "More" });
  await more.click();
  const dialog = page.getByRole("dialog", { name: "More" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Scout" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: /Profile/ })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: /Admin Panel/ })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(more).toBeFocused();

  await more.click();
  await dialog.getByRole("link", { name: /Profile/ }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("dialog", { name: "More" })).toBeHidden();
});

// The sidebar exists on the desktop layout only: the mobile project leaves out @desktop-only.
test("desktop: sidebar collapses and the Admin Panel link is for admins only", { tag: "@desktop-only" }, async ({ page, loginAs }) => {
  await loginAs("player");
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: /main/i });
  await expect(nav.getByRole("link", { name: "My Competitions" })).toBeVisible();
  await expect(nav.getByRole("link", { name: /Admin Panel/ })).toHaveCount(0);
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // A player who types the admin URL is refused by the server.
  await page.goto("/admin/fixtures");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Access denied. Admins only.")).toBeVisible();

  await page.context().clearCookies();
  await loginAs("admin");
  await page.goto("/dashboard");
  await page
    .getByRole("navigation", { name: /main/i })
    .getByRole("link", { name: /Admin Panel/ })
    .click();
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
});

test("friendly 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/not found/i);
});

test("terms and privacy pages are public", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByText(/18/).first()).toBeVisible();
  await expect(page.getByText(/Monday to Friday/)).toBeVisible();
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Privacy/);
  expect((await db()`select 1 as one`)[0].one).toBe(1);
});
