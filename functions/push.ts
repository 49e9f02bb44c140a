import { Hono, type Context } from "hono";
import type { z } from "zod";
import { isCrossSiteMutation } from "../app/lib/origin";
import { DeleteSubscriptionBody, SaveSubscriptionBody, deletePushSubscription, savePushSubscription } from "../app/models/push.server";
import type { FunctionsBindings } from "./app";

type C = Context<{ Bindings: FunctionsBindings }>;

/** The request's JSON body checked by the schema, or the 400 answer (never a 5xx for what the client sent). */
async function readBody<S extends z.ZodType>(c: C, schema: S): Promise<{ ok: true; body: z.infer<S> } | { ok: false; response: Response }> {
  const text = await c.req.text().catch(() => null);
  if (text === null || text.length > 16_384) return { ok: false, response: c.json({ error: "The request could not be read." }, 400) };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: c.json({ error: "The request could not be read." }, 400) };
  }
  // Async: a subscription's keys are checked with WebCrypto (app/lib/push-services.ts).
  const parsed = await schema.safeParseAsync(json);
  if (!parsed.success) return { ok: false, response: c.json({ error: "Invalid push subscription." }, 400) };
  return { ok: true, body: parsed.data };
}

/**
 * The signed-in player, or the refusal: cross-site calls 403 (the Worker refuses them first; checked here again
 * so the functions never depend on where they are mounted), no valid session 401.
 */
async function caller(c: C): Promise<{ ok: true; userId: string } | { ok: false; response: Response }> {
  if (isCrossSiteMutation(c.req.raw)) return { ok: false, response: c.json({ error: "Cross-site request refused." }, 403) };
  const user = await c.env.session.user();
  if (!user) return { ok: false, response: c.json({ error: "Not signed in." }, 401) };
  return { ok: true, userId: user.id };
}

/**
 * save-subscription (decision 014): the browser's Web Push subscription or FCM token for the signed-in player.
 * POST saves (idempotent), DELETE (or POST delete-subscription) removes. A userId in the body is ignored.
 */
export const pushFunctions = new Hono<{ Bindings: FunctionsBindings }>();

// The database layer throws a Response for what it could not take (400) or when it is down (503); Hono's
// onError sees only Error objects, so those answers are returned here.
pushFunctions.use(async (c, next) => {
  try {
    await next();
  } catch (error) {
    if (error instanceof Response) {
      c.res = new Response(
        JSON.stringify({ error: error.status === 400 ? "The request could not be read." : "The service is temporarily unavailable." }),
        {
          status: error.status,
          headers: { "Content-Type": "application/json" },
        },
      );
      return;
    }
    throw error;
  }
});

async function save(c: C) {
  const who = await caller(c);
  if (!who.ok) return who.response;
  const read = await readBody(c, SaveSubscriptionBody);
  if (!read.ok) return read.response;
  const result = await savePushSubscription(c.env.db, who.userId, read.body);
  if (result === "no_profile") return c.json({ error: "No profile found. Let's get you set up!" }, 409);
  if (result === "invalid") return c.json({ error: "Invalid push subscription." }, 400);
  await c.env.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return c.json({ ok: true, result });
}

async function remove(c: C) {
  const who = await caller(c);
  if (!who.ok) return who.response;
  const read = await readBody(c, DeleteSubscriptionBody);
  if (!read.ok) return read.response;
  const result = await deletePushSubscription(c.env.db, who.userId, read.body);
  await c.env.db.commit();
  return c.json({ ok: true, result });
}

pushFunctions.post("/save-subscription", save);
pushFunctions.delete("/save-subscription", remove);
pushFunctions.post("/delete-subscription", remove);
