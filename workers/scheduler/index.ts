import { Hono } from "hono";
import { connect } from "./db";
import { deliverBatch } from "./deliver";
import { pushNotConfigured, readSchedulerEnv, type SchedulerBindings } from "./env";
import { FEED_CRON, MAIN_CRON, runFeedTick, runTick } from "./jobs";
import type { DeliveryMessage } from "./queue";

// Sync now (decision 027): the web Worker's FEED_SYNC service binding calls this RPC entrypoint.
export { FeedSync } from "./feed/sync-now";

/**
 * The scheduler Worker (decisions 013, 019, 020): a cron tick every 15 minutes (reminders, match-day processing and
 * registration closing, the Scout scoring sweep), the data feed's tick every minute, and the push queue's
 * consumer. Its HTTP side only says it is alive; locally `wrangler dev --test-scheduled` adds /__scheduled to run
 * one tick (?cron= picks which). Its one entrypoint besides, FeedSync, is reached only through a service binding
 * (the web Worker's "Sync now"), never from a URL.
 */
const app = new Hono<{ Bindings: SchedulerBindings }>();

app.get("/", (c) => c.json({ service: "footycoach-scheduler", crons: [MAIN_CRON, FEED_CRON] }));

/**
 * For the post-deploy smoke check (`npm run smoke`): whether the game jobs can reach the database and whether
 * pushes can be sent (names of missing or bad settings, never their values). 503 when either cannot.
 */
app.get("/health", async (c) => {
  let env;
  try {
    env = readSchedulerEnv(c.env);
  } catch (error) {
    return c.json({ ok: false, config: "invalid", problems: [(error as Error).message] }, 503);
  }
  const database = await connect(env)`select 1 as ok`.then(
    (rows) => rows[0]?.ok === 1,
    () => false,
  );
  const push = pushNotConfigured(env);
  // the feed's live scores reach open pages through the web Worker's LiveMatchDay objects (decision 022)
  const live = env.liveProblems.length ? `live not configured: ${env.liveProblems.join("; ")}` : env.LIVE ? "bound" : "not bound";
  const ok = database && !push && !env.liveProblems.length;
  return c.json(
    {
      ok,
      config: push || env.liveProblems.length ? "invalid" : "valid",
      database: database ? "reachable" : "unreachable",
      push: push ?? "configured",
      live,
    },
    ok ? 200 : 503,
  );
});
app.notFound((c) => c.json({ error: "Not found" }, 404));

const scheduler: ExportedHandler<SchedulerBindings, DeliveryMessage> = {
  fetch: app.fetch,

  async scheduled(controller, bindings) {
    const env = readSchedulerEnv(bindings);
    // Production runs the rules at the real time, so a late tick sees how late it is. Development and tests
    // run them at the tick's scheduled time, which they choose (createScheduledController, /__scheduled?time=).
    const now = env.ENVIRONMENT === "production" ? new Date() : new Date(controller.scheduledTime);
    const report =
      controller.cron === FEED_CRON
        ? await runFeedTick(env, controller.scheduledTime, now)
        : await runTick(env, controller.scheduledTime, now);
    console.log(`scheduler tick ${report.scheduledAt}: ${JSON.stringify(report.jobs)}; ${report.deliveriesQueued} deliveries queued`);
    if (report.jobs.some((j) => j.status === "failed")) throw new Error("a scheduler job failed (see the log); the next tick retries it");
  },

  async queue(batch, bindings) {
    const env = readSchedulerEnv(bindings);
    // Messages wait in the queue (retried with backoff) until push is configured; nothing is marked sent.
    const pushOff = pushNotConfigured(env);
    if (pushOff) throw new Error(pushOff);
    await deliverBatch(batch, env);
  },
};

export default scheduler;
