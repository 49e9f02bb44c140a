import { Hono } from "hono";
import { deliverBatch } from "./deliver";
import { readSchedulerEnv, type SchedulerBindings } from "./env";
import { FEED_CRON, MAIN_CRON, runFeedTick, runTick } from "./jobs";
import type { DeliveryMessage } from "./queue";

/**
 * The scheduler Worker (decisions 013, 019): a cron tick every 15 minutes (reminders, match-day processing and
 * registration closing, the Scout scoring sweep), the data feed's tick every minute, and the push queue's
 * consumer. Its HTTP side only says it is alive; locally `wrangler dev --test-scheduled` adds /__scheduled to run
 * one tick (?cron= picks which).
 */
const app = new Hono<{ Bindings: SchedulerBindings }>();

app.get("/", (c) => c.json({ service: "footycoach-scheduler", crons: [MAIN_CRON, FEED_CRON] }));
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
    await deliverBatch(batch, readSchedulerEnv(bindings));
  },
};

export default scheduler;
