import type { Db, SessionUser } from "./db/types";
import type { Env } from "./env.server";
import type { FeedSyncer } from "../workers/web/feed-sync";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Env;
    db: Db;
    /** The request's clock (real time unless a test moved it). */
    now: Date;
    /** The signed-in user for this request, looked up once and shared by every loader. */
    user(): Promise<SessionUser | null>;
    /** The user id of the signed session cookie, before the database has checked it (see requireUserWith). */
    userId(): Promise<string | null>;
    /** Whether the request carries a well-signed session cookie; asks nothing of the database. */
    hasSessionCookie(): Promise<boolean>;
    clientAddress: string;
    waitUntil(promise: Promise<unknown>): void;
    /** After a committed change of these match days' fixtures: tell their live pages (decision 022; after the answer). */
    notifyLive(keys: { league: string; season: string; matchDay: number }[]): void;
    /** After a committed "Sync now" or Link: the scheduler syncs that league at once if it can (decision 027). */
    syncFeedLeague: FeedSyncer;
  }
}
