import { z } from "zod";
import type { Db } from "~/db/types";
// Relative, not "~/": functions/push.ts brings this module into the web Worker outside the Remix build.
import { MAX_ENDPOINT_LENGTH, pushEndpointProblem, webPushKeysProblem } from "../lib/push-services";

/**
 * A player's push subscription (decision 014): saved, removed and turned off only through the SQL functions of
 * migration 20261124130000, run as the signed-in player (auth.uid()), so a user id in a request body is never
 * read. Shapes are checked here first so bad bodies are a 400, never a database error.
 */
const Key = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_\-+/=]+$/);

/** An endpoint as a URL, for finding a stored row to delete (rows saved before the push-service rules too). */
const EndpointUrl = z
  .string()
  .max(MAX_ENDPOINT_LENGTH)
  // Printable ASCII only (a URL as sent; no spaces, controls or NUL).
  .regex(/^https:\/\/[\x21-\x7e]+$/)
  .refine((value) => {
    try {
      return new URL(value).protocol === "https:" && value.startsWith("https://");
    } catch {
      return false;
    }
  }, "endpoint must be an https URL");

/**
 * A subscription to save: its endpoint is where the scheduler will POST, so it must be on a known push service's
 * host and its keys must be ones a push can be encrypted to (app/lib/push-services.ts; the scheduler checks the
 * same again before sending). Parse with safeParseAsync: the key check uses WebCrypto.
 */
export const WebPushSubscription = z
  .object({
    endpoint: EndpointUrl.refine((value) => pushEndpointProblem(value) === null, "endpoint must be on a known push service"),
    keys: z.object({ p256dh: Key, auth: Key.max(100) }),
  })
  .superRefine(async (s, ctx) => {
    const problem = await webPushKeysProblem(s.keys.p256dh, s.keys.auth);
    if (problem) ctx.addIssue({ code: "custom", path: ["keys"], message: problem });
  });

const FcmToken = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9_\-:.]+$/);

/** The body of save-subscription: {subscription} or {fcmToken, type: 'fcm'}; other keys (userId) are ignored. */
export const SaveSubscriptionBody = z.union([
  z.object({ type: z.literal("fcm"), fcmToken: FcmToken }),
  z.object({ subscription: WebPushSubscription, type: z.literal("webpush").optional() }),
]);
export type SaveSubscriptionBody = z.infer<typeof SaveSubscriptionBody>;

/** The body of the delete: the subscription (or its endpoint) or the FCM token to remove. */
export const DeleteSubscriptionBody = z.union([
  z.object({ type: z.literal("fcm"), fcmToken: FcmToken }),
  z.object({ subscription: z.object({ endpoint: EndpointUrl }) }),
  z.object({ endpoint: EndpointUrl }),
]);
export type DeleteSubscriptionBody = z.infer<typeof DeleteSubscriptionBody>;

/** invalid: the database refused the values (22023), e.g. an endpoint its own push-service check does not take. */
export type PushWriteResult = "saved" | "deleted" | "not_found" | "no_profile" | "invalid";

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;
const noProfile = (error: unknown) => codeOf(error) === "P0002";

export async function savePushSubscription(db: Db, userId: string, body: SaveSubscriptionBody): Promise<PushWriteResult> {
  try {
    return await db.asUser(userId, async (sql) => {
      const [row] =
        "fcmToken" in body
          ? await sql<
              { result: PushWriteResult }[]
            >`select public.save_push_subscription('fcm', null, null, null, ${body.fcmToken}) as result`
          : await sql<{ result: PushWriteResult }[]>`
              select public.save_push_subscription('webpush', ${body.subscription.endpoint}, ${body.subscription.keys.p256dh},
                                                    ${body.subscription.keys.auth}, null) as result`;
      return row.result;
    });
  } catch (error) {
    if (noProfile(error)) return "no_profile";
    // Bad input is a 400, never a 500, even when only the database caught it.
    if (codeOf(error) === "22023") return "invalid";
    throw error;
  }
}

export async function deletePushSubscription(db: Db, userId: string, body: DeleteSubscriptionBody): Promise<PushWriteResult> {
  const endpoint = "endpoint" in body ? body.endpoint : "subscription" in body ? body.subscription.endpoint : null;
  const token = "fcmToken" in body ? body.fcmToken : null;
  return db.asUser(userId, async (sql) => {
    const [row] = await sql<{ result: PushWriteResult }[]>`select public.delete_push_subscription(${endpoint}, ${token}) as result`;
    return row.result;
  });
}

/** The /profile toggle's off: every subscription removed, notifications_enabled false, the FCM token cleared. */
export async function disableNotifications(db: Db, userId: string): Promise<void> {
  await db.asUser(userId, (sql) => sql`select public.disable_notifications()`);
}

export interface PushState {
  /** The player is in at least one active competition (one of the permission prompt's conditions). */
  activeCompetition: boolean;
  /** The player has saved a pick (the prompt waits for this calm moment: not on first login, nor between
   *  joining and the first Select Team). */
  savedPick: boolean;
  notificationsEnabled: boolean;
  /** The FCM token the server holds and when it was saved (the 7-day refresh and "saved only if changed"). */
  fcmTokenUpdatedAt: string | null;
  fcmToken: string | null;
}

/** The layout's read for the push setup: one statement, sent with the session check (no extra round trip). */
export function getPushState(db: Db, userId: string): Promise<PushState> {
  return db.asUser(userId, async (sql) => {
    const [row] = await sql<PushState[]>`
      select exists (select 1 from public.user_selections us
                       join public.competitions c on c.id = us.competition_id
                      where us.user_id = ${userId} and us.status = 'active' and c.status = 'active') as "activeCompetition",
             exists (select 1 from public.team_selections ts where ts.user_id = ${userId}) as "savedPick",
             coalesce(p.notifications_enabled, false) as "notificationsEnabled",
             p.fcm_token as "fcmToken",
             to_char(p.fcm_token_updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "fcmTokenUpdatedAt"
        from (select 1) one left join public.profiles p on p.id = ${userId}`;
    return row;
  });
}
