import type postgres from "postgres";
import { atTime, connect, type Sql } from "./db";
import { feedNotConfigured, pushNotConfigured, type SchedulerEnv } from "./env";
import { runFeed } from "./feed/job";
import { liveNotifier } from "../web/live-notify";
import { enqueueDeliveries } from "./queue";

/** The main tick's cron (decision 013) and the data feed's (decision 020: every minute). Not exported from index.ts:
 * a Worker's named exports are entrypoints. */
export const MAIN_CRON = "*/15 * * * *";
export const FEED_CRON = "* * * * *";

export type JobName = "matchdays" | "scout_sweep" | "reminders" | "cleanup" | "feed";
export type JobResult =
  { job: JobName; status: "done"; result: Record<string, number> } | { job: JobName; status: "skipped" | "failed"; error?: string };

export interface TickReport {
  scheduledAt: string;
  jobs: JobResult[];
  deliveriesQueued: number;
  messagesSent: number;
}

/**
 * One job for one scheduled time, in its own transaction: claimed in private.job_runs (a second run of the same
 * tick skips it), run, recorded. A failure rolls the claim back too, so the next tick tries again.
 */
async function runJob(
  sql: Sql,
  now: Date,
  scheduledAt: string,
  job: JobName,
  work: (tx: postgres.TransactionSql) => Promise<Record<string, number>>,
): Promise<JobResult> {
  try {
    return await atTime(sql, now, async (tx) => {
      const [{ claimed }] = await tx<{ claimed: boolean }[]>`select private.claim_job_run(${job}, ${scheduledAt}) as claimed`;
      if (!claimed) return { job, status: "skipped" } as const;
      const result = await work(tx);
      await tx`select private.finish_job_run(${job}, ${scheduledAt}, ${tx.json(result)})`;
      return { job, status: "done", result } as const;
    });
  } catch (error) {
    console.error(`scheduler job ${job} failed:`, (error as Error)?.message ?? error);
    return { job, status: "failed", error: String((error as Error)?.message ?? error) };
  }
}

/**
 * A job whose work makes its own transactions: the feed, whose HTTP requests must not hold a transaction open
 * (on the embedded database an open transaction blocks everyone). Claimed and recorded like the others; when its
 * work throws, the claim is released so the next tick tries again.
 */
async function runJobInSteps(
  sql: Sql,
  now: Date,
  scheduledAt: string,
  job: JobName,
  work: () => Promise<Record<string, number>>,
): Promise<JobResult> {
  try {
    const claimed = await atTime(sql, now, async (tx) => {
      const [row] = await tx<{ claimed: boolean }[]>`select private.claim_job_run(${job}, ${scheduledAt}) as claimed`;
      return row.claimed;
    });
    if (!claimed) return { job, status: "skipped" };
    let result: Record<string, number>;
    try {
      result = await work();
    } catch (error) {
      await sql`delete from private.job_runs where job = ${job} and scheduled_at = ${scheduledAt}`.catch(() => {});
      throw error;
    }
    await atTime(sql, now, (tx) => tx`select private.finish_job_run(${job}, ${scheduledAt}, ${tx.json(result)})`);
    return { job, status: "done", result };
  } catch (error) {
    console.error(`scheduler job ${job} failed:`, (error as Error)?.message ?? error);
    return { job, status: "failed", error: String((error as Error)?.message ?? error) };
  }
}

/**
 * Notice pushes (decision 020) that nobody has put on the queue yet: an admin's correction makes them in the web
 * Worker, which has no queue; the feed's own corrections make them in this Worker. Taken (marked enqueued) in one
 * statement so two ticks never both take one.
 */
export async function takeNoticeDeliveries(sql: Sql, now: Date): Promise<number[]> {
  const rows = await atTime(
    sql,
    now,
    (tx) => tx<{ delivery_id: string }[]>`select delivery_id from private.take_unqueued_notice_deliveries(${now})`,
  );
  return rows.map((r) => Number(r.delivery_id));
}

/**
 * The feed tick (its own cron, every minute; decision 020): the feed job, then the notice pushes its corrections
 * made. Every minute so that live scores and results arrive as the matches are played and "Sync now" answers
 * quickly; the job itself decides which leagues are due, so a quiet minute costs one small query.
 */
export async function runFeedTick(env: SchedulerEnv, scheduledTime: number, now: Date): Promise<TickReport> {
  const sql = connect(env);
  const scheduledAt = new Date(scheduledTime).toISOString();
  const feedOff = feedNotConfigured(env);
  if (feedOff) console.error(`scheduler job feed failed: ${feedOff}`);
  // Live pages are a courtesy of the feed, never a condition of it: without the binding the sync still runs.
  if (env.liveProblems.length) console.error(`live pages not told of the feed's changes: ${env.liveProblems.join("; ")}`);
  const notifyLive = liveNotifier(env.LIVE);
  const jobs: JobResult[] = [
    feedOff
      ? { job: "feed", status: "failed", error: feedOff }
      : await runJobInSteps(sql, now, scheduledAt, "feed", () =>
          runFeed(sql, { url: env.FOOTBALL_DATA_URL, token: env.FOOTBALL_DATA_TOKEN, notifyLive }, now),
        ),
  ];
  // Without push configuration notice pushes stay unqueued in the database (as reminders are not made at all).
  if (pushNotConfigured(env)) return { scheduledAt, jobs, deliveriesQueued: 0, messagesSent: 0 };
  let ids: number[] = [];
  try {
    ids = await takeNoticeDeliveries(sql, now);
  } catch (error) {
    console.error("notice deliveries:", (error as Error)?.message ?? error);
  }
  const messagesSent = await enqueueDeliveries(env.PUSH_QUEUE, ids);
  return { scheduledAt, jobs, deliveriesQueued: ids.length, messagesSent };
}

/**
 * The cron tick. Jobs are idempotent: the match-day and Scout functions look at the current state, and each
 * reminder is recorded once in public.reminder_log before its push exists. `now` is the clock the rules
 * run at (real time in production; see index.ts).
 */
export async function runTick(env: SchedulerEnv, scheduledTime: number, now: Date): Promise<TickReport> {
  const sql = connect(env);
  const scheduledAt = new Date(scheduledTime).toISOString();
  const jobs: JobResult[] = [];
  let newDeliveries: number[] = [];

  // Registration closes at the start match day's deadline and due match days are processed, even when no
  // result was entered (process_due_matchdays closes registrations first).
  jobs.push(
    await runJob(sql, now, scheduledAt, "matchdays", async (tx) => {
      const [{ n }] = await tx<{ n: number }[]>`select public.process_due_matchdays() as n`;
      return { advanced: n };
    }),
  );
  // Safety net: results whose Scout scoring did not run (scoring itself runs when the result is saved).
  jobs.push(
    await runJob(sql, now, scheduledAt, "scout_sweep", async (tx) => {
      const [{ n }] = await tx<{ n: number }[]>`select public.score_scout_sweep() as n`;
      return { scored: n };
    }),
  );
  // Reminders are pushes: without push configuration they are not queued at all (so none is recorded as sent),
  // and the job reports why. The game jobs above and the cleanup below run either way.
  const pushOff = pushNotConfigured(env);
  if (pushOff) {
    console.error(`scheduler job reminders skipped: ${pushOff}`);
    jobs.push({ job: "reminders", status: "failed", error: pushOff });
  } else
    jobs.push(
      await runJob(sql, now, scheduledAt, "reminders", async (tx) => {
        const rows = await tx<{ delivery_id: string }[]>`select delivery_id from private.queue_reminders(${now})`;
        newDeliveries = rows.map((r) => Number(r.delivery_id));
        return { deliveries: rows.length };
      }),
    );

  // History older than 90 days (30 for job runs): its deadlines have long passed.
  jobs.push(
    await runJob(sql, now, scheduledAt, "cleanup", async (tx) => {
      const [{ n }] = await tx<{ n: number }[]>`select private.clean_scheduler_history(${now}) as n`;
      return { removed: n };
    }),
  );

  // Without push configuration nothing is put on the queue (deliveries stay queued in the database until it is).
  if (pushOff) return { scheduledAt, jobs, deliveriesQueued: 0, messagesSent: 0 };
  // The new deliveries, notice pushes not enqueued yet, and any a dead tick or consumer left behind (the consumer's
  // claim makes a repeat safe).
  const notices = await takeNoticeDeliveries(sql, now);
  const stranded = await atTime(
    sql,
    now,
    (tx) => tx<{ delivery_id: string }[]>`select delivery_id from private.stranded_push_deliveries(${now})`,
  );
  const ids = [...new Set([...newDeliveries, ...notices, ...stranded.map((r) => Number(r.delivery_id))])];
  const messagesSent = await enqueueDeliveries(env.PUSH_QUEUE, ids);
  return { scheduledAt, jobs, deliveriesQueued: ids.length, messagesSent };
}
