/**
 * Arrange steps of the data feed's browser tests (admin-feed.spec.ts): the local server that speaks
 * football-data.org v4, the scheduler Worker under wrangler dev in the web Worker's dev registry (so the web
 * Worker's FEED_SYNC binding reaches it: "Sync now" at once, decision 027), leagues linked as the admin panel
 * leaves them, an admin's result through the public SQL API, and the Data Feed section's locators.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { freePort, startSchedulerWorker, type Worker } from "../../scripts/app-server";
import { db, expect } from "./fixtures";

/**
 * The scheduler Worker reading the feed from `feedUrl`, bound into the web Worker's dev registry (global-setup.ts).
 * wrangler dev fires no cron by itself: it syncs only when the web Worker asks (Sync now, Link).
 */
export async function startScheduler(feedUrl: string, token: string): Promise<Worker> {
  return startSchedulerWorker({
    port: await freePort(),
    databaseUrl: process.env.E2E_DATABASE_URL!,
    stateDir: mkdtempSync(path.join(os.tmpdir(), "footycoach-e2e-scheduler-")),
    registryDir: process.env.E2E_REGISTRY_DIR,
    quiet: !process.env.E2E_VERBOSE,
    vars: { ENVIRONMENT: "test", PUSH_PROVIDER: "outbox", FOOTBALL_DATA_URL: feedUrl, FOOTBALL_DATA_TOKEN: token },
  });
}

/** A league's season linked as the admin panel's Link leaves it (a sync asked for). */
export async function linkInDb(league: string, season: string) {
  await db()`insert into public.feed_leagues (league, season, code, season_year, sync_requested_at)
             values (${league}, ${season}, private.feed_competition_code(${league}), private.season_start_year(${season}), now())`;
}

/** An admin's result through the public SQL API (what the results form calls), as `adminId`. */
export async function adminResult(adminId: string, fixtureId: string, home: number, away: number) {
  await db().begin(async (tx) => {
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: adminId, role: "authenticated" })}, true),
                    set_config('role', 'authenticated', true)`;
    await tx`select public.save_fixture_result(${fixtureId}::bigint, ${home}, ${away})`;
  });
}

export async function openFeed(page: Page) {
  await page.goto("/admin/feed");
  await expect(page.getByRole("heading", { level: 2, name: "Data Feed" })).toBeVisible();
}

export const leagueCard = (page: Page, league: string) =>
  page
    .getByRole("list", { name: "Leagues" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: new RegExp(`^${league} `) }) });
