/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * The scheduler Worker's cron tick in workerd on the real database: who gets the 6h and 3h reminders, exactly
 * once however the ticks overlap, and the match-day job closing registration at the deadline.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/scheduler/index";
import { readSchedulerEnv, type SchedulerBindings } from "../../workers/scheduler/env";
import { runTick } from "../../workers/scheduler/jobs";
import { addPick, createPlayer, type Sql } from "../support/factories";
import { itOnRealPostgres } from "../support/real-postgres";
import { addMember, db, eventually, HOUR, leagueWithCompetition, MINUTE, received, subscribedPlayer, settle } from "./arrange";

type WorkerEnv = Parameters<NonNullable<typeof worker.scheduled>>[1];

let sql: Sql;
beforeAll(() => {
  sql = db();
});
afterAll(settle);

/** Runs one cron tick scheduled at `at` (tests run the rules at the scheduled time; see workers/scheduler/index.ts). */
async function tick(at: Date) {
  const controller = createScheduledController({ scheduledTime: at.getTime(), cron: "*/15 * * * *" });
  const ctx = createExecutionContext();
  await worker.scheduled!(controller, env as unknown as WorkerEnv, ctx);
  await waitOnExecutionContext(ctx);
}

const reminders = (userId: string) =>
  sql<{ kind: string; competition_id: string; match_day: number }[]>`
    select kind, competition_id, match_day from public.reminder_log where user_id = ${userId} order by sent_at, kind`;
/** The pushes made for the player: one per (kind, tick) and subscription (each test player has one). */
const messages = (userId: string) =>
  sql<{ kind: string; body: string; link: string }[]>`
    select kind, body, link from private.push_deliveries where user_id = ${userId} order by id`;

// Each test lives in its own week of 2031, so other tests' match days are never due at its ticks.
const week = (n: number) => new Date(Date.UTC(2031, 0, 6 + 7 * n, 15, 0));
/** "Mon 06 Jan" of a date as Postgres's to_char 'Dy DD Mon' writes it (UTC day; the tests' zones keep the day). */
const day = (d: Date) =>
  `${d.toLocaleDateString("en-GB", { weekday: "short", timeZone: "UTC" })} ${String(d.getUTCDate()).padStart(2, "0")} ${d.toLocaleDateString("en-GB", { month: "short", timeZone: "UTC" })}`;

describe("reminder ticks", () => {
  it("reminds a player without a pick 6 hours and then 3 hours before the deadline, and nobody else", async () => {
    const kickoff = week(0);
    const { competition, deadline } = await leagueWithCompetition(sql, kickoff, { name: "Sunday Survivors" });
    const waiting = await subscribedPlayer(sql);
    const picked = await subscribedPlayer(sql);
    const muted = await subscribedPlayer(sql);
    const unsubscribed = await createPlayer(sql);
    const eliminated = await subscribedPlayer(sql);
    await sql`update public.profiles set notifications_enabled = false where id = ${muted.id}`;
    await sql`update public.profiles set notifications_enabled = true where id = ${unsubscribed.id}`;
    for (const p of [waiting, picked, muted, unsubscribed]) await addMember(sql, competition.id, p.id);
    await addMember(sql, competition.id, eliminated.id, { knockedOutOn: 1 });
    await addPick(sql, { userId: picked.id, competitionId: competition.id, matchDay: 1, team: "Arsenal" });

    await tick(new Date(deadline.getTime() - 7 * HOUR)); // not yet due
    expect(await reminders(waiting.id)).toEqual([]);

    await tick(new Date(deadline.getTime() - 6 * HOUR)); // on time
    await tick(new Date(deadline.getTime() - 5 * HOUR)); // still the 6h window: nothing new
    expect(await reminders(waiting.id)).toEqual([{ kind: "6h", competition_id: competition.id, match_day: 1 }]);

    await tick(new Date(deadline.getTime() - 3 * HOUR)); // on time
    await tick(new Date(deadline.getTime() - 30 * MINUTE));
    await tick(new Date(deadline.getTime() + 5 * MINUTE)); // past the deadline: nothing
    expect((await reminders(waiting.id)).map((r) => r.kind)).toEqual(["6h", "3h"]);

    const sent = await messages(waiting.id);
    expect(sent.map((m) => m.kind)).toEqual(["6h", "3h"]);
    expect(sent[0].body).toMatch(
      /^Team selection closes in 6 hours\. Pick your team for Sunday Survivors \(\w{3} \d{2} \w{3} 14:00\) \(UTC\)\.$/,
    );
    expect(sent[1].body).toMatch(/^Final reminder: team selection closes in 3 hours\./);
    expect(sent.every((m) => m.link === `/select-team/${competition.id}`)).toBe(true);

    for (const p of [picked, muted, unsubscribed, eliminated]) expect(await reminders(p.id)).toEqual([]);

    // Through the real queue to the local push service: each push arrives once, decrypted to what was sent.
    const pushes = await eventually(async () => {
      const got = await received(waiting.subscription.endpoint);
      return got.length >= 2 ? got : undefined;
    });
    expect(pushes.map((p) => p.payload.title)).toEqual(["FootyCoach", "FootyCoach"]);
    expect(pushes[0].payload).toMatchObject({
      icon: "/icon-192.png",
      tag: "footy-coach-fcm",
      link: `http://footycoach.test/select-team/${competition.id}`,
    });
    expect(await received(picked.subscription.endpoint)).toEqual([]);
  });

  it("a late run skips the 6-hour reminder and still sends the 3-hour one before the deadline", async () => {
    const { competition, deadline } = await leagueWithCompetition(sql, week(1));
    const player = await subscribedPlayer(sql);
    await addMember(sql, competition.id, player.id);

    await tick(new Date(deadline.getTime() - 2 * HOUR));
    expect((await reminders(player.id)).map((r) => r.kind)).toEqual(["3h"]);
    expect((await messages(player.id))[0].body).toMatch(/^Final reminder: team selection closes in 2 hours\. Pick your team for /);
  });

  it("a late tick states the real time left (whole hours, or minutes under an hour), the deadline still in the player's zone", async () => {
    // Three match days of their own, each reminded by one late tick.
    const sixLate = await leagueWithCompetition(sql, week(7), { name: "Late Six" });
    const finalLate = await leagueWithCompetition(sql, week(8), { name: "Late Final" });
    const lastMinutes = await leagueWithCompetition(sql, week(9), { name: "Last Minutes" });
    const player = await subscribedPlayer(sql);
    await sql`update public.profiles set time_zone = 'Asia/Tokyo' where id = ${player.id}`;
    for (const c of [sixLate, finalLate, lastMinutes]) await addMember(sql, c.competition.id, player.id);

    await tick(new Date(sixLate.deadline.getTime() - 5 * HOUR)); // the 6-hour reminder, an hour late
    await tick(new Date(finalLate.deadline.getTime() - 2 * HOUR - 10 * MINUTE)); // the final one, 50 minutes late
    await tick(new Date(lastMinutes.deadline.getTime() - 45 * MINUTE));

    // each deadline is 14:00 UTC, 23:00 in Tokyo
    expect((await messages(player.id)).map((m) => m.body)).toEqual([
      "Team selection closes in 5 hours. Pick your team for Late Six (" + day(sixLate.deadline) + " 23:00) (Asia/Tokyo).",
      "Final reminder: team selection closes in 2 hours. Pick your team for Late Final (" +
        day(finalLate.deadline) +
        " 23:00) (Asia/Tokyo).",
      "Final reminder: team selection closes in 45 minutes. Pick your team for Last Minutes (" +
        day(lastMinutes.deadline) +
        " 23:00) (Asia/Tokyo).",
    ]);
  });

  it("one push per player and kind covers every competition due, in the player's time zone, linking to the dashboard", async () => {
    const kickoff = week(2);
    const first = await leagueWithCompetition(sql, kickoff, { name: "Alpha Cup" });
    const second = await leagueWithCompetition(sql, new Date(kickoff.getTime() + 2 * HOUR), { name: "Beta League" });
    const player = await subscribedPlayer(sql);
    await sql`update public.profiles set time_zone = 'America/New_York' where id = ${player.id}`;
    await addMember(sql, first.competition.id, player.id);
    await addMember(sql, second.competition.id, player.id);

    // first deadline 3 h 59 min away, the second 5 h 59 min: both due for the 6-hour reminder
    await tick(new Date(first.deadline.getTime() - 4 * HOUR + MINUTE));
    const sent = await messages(player.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].link).toBe("/dashboard");
    // The time left is until the first of the two deadlines.
    expect(sent[0].body).toMatch(/^Team selection closes in 3 hours\. /);
    // 14:00 and 16:00 UTC in January are 09:00 and 11:00 in New York
    expect(sent[0].body).toMatch(
      /Pick your teams for Alpha Cup \(\w{3} \d{2} \w{3} 09:00\), Beta League \(\w{3} \d{2} \w{3} 11:00\) \(America\/New_York\)\.$/,
    );
    expect((await reminders(player.id)).length).toBe(2);
  });

  itOnRealPostgres("three overlapping ticks record and deliver each reminder once", async () => {
    const { competition, deadline } = await leagueWithCompetition(sql, week(3));
    const players: Awaited<ReturnType<typeof subscribedPlayer>>[] = [];
    for (let i = 0; i < 5; i++) players.push(await subscribedPlayer(sql));
    for (const p of players) await addMember(sql, competition.id, p.id);

    const at = deadline.getTime() - 6 * HOUR + 2 * MINUTE;
    // the same scheduled time three times (a replayed tick) and two other times inside the window
    await Promise.all([
      tick(new Date(at)),
      tick(new Date(at)),
      tick(new Date(at)),
      tick(new Date(at + MINUTE)),
      tick(new Date(at + 2 * MINUTE)),
    ]);

    for (const p of players) {
      expect(await reminders(p.id)).toHaveLength(1);
      expect(await messages(p.id)).toHaveLength(1);
    }
    const counts = await eventually(async () => {
      const c = await Promise.all(players.map(async (p) => (await received(p.subscription.endpoint)).length));
      return c.every((n) => n >= 1) ? c : undefined;
    });
    await new Promise((r) => setTimeout(r, 2_000)); // room for a duplicate to arrive, were there one
    expect(await Promise.all(players.map(async (p) => (await received(p.subscription.endpoint)).length))).toEqual(counts.map(() => 1));
  });
});

describe("cleanup job", () => {
  it("removes finished deliveries and reminders older than 90 days, and job runs older than 30", async () => {
    const player = await subscribedPlayer(sql);
    const at = week(6);
    const old = new Date(at.getTime() - 91 * 24 * HOUR);
    const recent = new Date(at.getTime() - 89 * 24 * HOUR);
    const { competition } = await leagueWithCompetition(sql, week(5));
    await sql`insert into public.reminder_log (user_id, competition_id, match_day, kind, sent_at)
              values (${player.id}, ${competition.id}, 1, '6h', ${old}), (${player.id}, ${competition.id}, 1, '3h', ${recent})`;
    await sql`insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, state, created_at)
              select ${player.id}, s.id, k.kind, 'FootyCoach', 'old', '/dashboard', k.state, k.at
                from public.push_subscriptions s,
                     (values ('6h', 'sent', ${old}::timestamptz), ('6h', 'queued', ${old}::timestamptz), ('3h', 'sent', ${recent}::timestamptz)) k(kind, state, at)
               where s.user_id = ${player.id}`;
    await tick(at);
    expect((await reminders(player.id)).map((r) => r.kind)).toEqual(["3h"]);
    const left = await sql<
      { state: string }[]
    >`select state from private.push_deliveries where user_id = ${player.id} order by created_at, state`;
    expect(left.map((d) => d.state)).toEqual(["queued", "sent"]); // an unfinished one is never dropped
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.job_runs where scheduled_at < ${new Date(at.getTime() - 30 * 24 * HOUR)}`;
    expect(n).toBe(0);
    await sql`delete from private.push_deliveries where user_id = ${player.id} and state = 'queued'`;
  });
});

describe("match-day job", () => {
  it("closes registration at the start match day's deadline though no result was entered", async () => {
    const { competition, deadline } = await leagueWithCompetition(sql, week(4), { registrationStatus: "open" });
    await tick(new Date(deadline.getTime() - MINUTE));
    const state = async () =>
      (await sql<{ s: string }[]>`select registration_status as s from public.competitions where id = ${competition.id}`)[0].s;
    expect(await state()).toBe("open");
    await tick(new Date(deadline.getTime() + MINUTE));
    expect(await state()).toBe("closed");
  });

  it("runs in production without push keys: registration closes and the reminder job reports 'push not configured'", async () => {
    const { competition, deadline } = await leagueWithCompetition(sql, week(20), { registrationStatus: "open" });
    const noPush = {
      ...(env as unknown as SchedulerBindings),
      ENVIRONMENT: "production",
      PUSH_PROVIDER: "live",
      VAPID_PUBLIC_KEY: "",
      VAPID_PRIVATE_KEY: "",
      PUSH_ENDPOINT_OVERRIDE: "",
      FCM_API_URL: "",
    };
    const at = new Date(deadline.getTime() + MINUTE);
    const report = await runTick(readSchedulerEnv(noPush), at.getTime(), at);
    expect(report.jobs.map((j) => [j.job, j.status])).toEqual([
      ["matchdays", "done"],
      ["scout_sweep", "done"],
      ["reminders", "failed"],
      ["cleanup", "done"],
    ]);
    expect(report.jobs[2]).toMatchObject({
      error: expect.stringMatching(/^push not configured: .*VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/),
    });
    expect(report.deliveriesQueued).toBe(0);
    const [row] = await sql<{ s: string }[]>`select registration_status as s from public.competitions where id = ${competition.id}`;
    expect(row.s).toBe("closed");
  });
});
