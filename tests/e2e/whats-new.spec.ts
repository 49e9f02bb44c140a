import { db, expect, test, uniqueName } from "./fixtures";

/*
 * Issue 22 item 9: release notes an admin publishes reach players. The navigation shows a "New" dot on What's new
 * (desktop sidebar; the More button and its menu on phones) until the player opens /whats-new, which lists the
 * published notes newest first with their Markdown rendered safely. Drafts never show.
 */

test("an admin publishes a release note; a player sees the New dot and the note, then the dot goes", async ({
  page,
  context,
  loginAs,
  isMobile,
}) => {
  const tag = uniqueName("");
  const older = `Older news ${tag}`;
  const draft = `Draft news ${tag}`;
  // An older published note and a draft, written directly; the new note goes through the admin panel.
  await db()`insert into public.release_notes (version, title, content, release_date, is_published)
             values (${`o${tag}`.slice(0, 50)}, ${older}, 'Old things.', current_date - 30, true),
                    (${`d${tag}`.slice(0, 50)}, ${draft}, 'Not yet.', current_date, false)`;

  await loginAs("admin");
  await page.goto("/admin/release-notes");
  const version = `v${tag}`.slice(0, 50);
  const title = `Shiny things ${tag}`;
  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content (Markdown)").fill("Some **bold** news.\n\n<script>window.__pwned = 1</script>\n");
  await page.getByRole("button", { name: "Create Release Note" }).click();
  await expect(page.getByText("Release note created!")).toBeVisible();
  const card = page.locator("li.release-note", { hasText: version });
  await card.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Release note published!")).toBeVisible();

  await context.clearCookies();
  await loginAs("player");
  await page.goto("/dashboard");
  // The entry: a dot on the navigation (no modal, nothing over the page).
  if (isMobile) {
    const more = page.getByRole("button", { name: /More.*new release notes/ });
    await expect(more).toBeVisible();
    await more.click();
    await expect(page.getByRole("dialog").getByRole("link", { name: /What's new.*new release notes/ })).toBeVisible();
    await page
      .getByRole("dialog")
      .getByRole("link", { name: /What's new/ })
      .click();
  } else {
    const entry = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: /What's new/ });
    await expect(entry).toHaveAccessibleName(/What's new.*new release notes/);
    await expect(entry.locator(".nav-new")).toBeVisible();
    await entry.click();
  }
  await expect(page).toHaveURL(/\/whats-new$/);
  await expect(page.getByRole("heading", { level: 1, name: "What's new" })).toBeVisible();

  // Newest first; Markdown rendered, raw HTML shown as text and never run; drafts absent.
  const note = page.locator("li.whats-new-note", { hasText: title });
  await expect(note.getByRole("heading", { level: 2, name: title })).toBeVisible();
  await expect(note.getByText(`Version ${version}`)).toBeVisible();
  await expect(note.locator("strong")).toHaveText("bold");
  await expect(note.getByText("<script>window.__pwned = 1</script>")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.getByText(draft)).toHaveCount(0);
  const titles = await page.locator("li.whats-new-note h2").allTextContents();
  expect(titles.indexOf(title)).toBeGreaterThanOrEqual(0);
  expect(titles.indexOf(title)).toBeLessThan(titles.indexOf(older));

  // Seen: the dot has gone, also after a full reload (the cookie), and no other page shows it.
  await page.goto("/dashboard");
  await expect(page.locator(".nav-new")).toHaveCount(0);

  // A newer note is new again.
  await db()`update public.release_notes
                set is_published = true,
                    created_at = (select max(created_at) from public.release_notes) + interval '1 second'
              where title = ${draft}`;
  await page.reload();
  await expect(page.locator(".nav-new").first()).toBeAttached();
  await db()`delete from public.release_notes where title in (${older}, ${draft}, ${title})`;
});
