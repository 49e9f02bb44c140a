/**
 * The demo data: loads once into an empty database, dated relative to `now`, consistent with the game rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDemoPlan,
  CLUBS,
  CURRENT_MATCH_DAY,
  DEMO_PASSWORD,
  doubleRoundRobin,
  LEAGUE,
  PRIVATE_REGISTRATION_KEY,
  SEASON,
  seedDemo,
} from "../../scripts/db/seed";
import { asUser, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const NOW = new Date("2026-11-18T10:00:00Z"); // a Wednesday
const DAY = 86_400_000;
let seeded: boolean;

beforeAll(async () => {
  db = await useTestDatabase();
  seeded = await seedDemo(db.sql, NOW);
});
afterAll(async () => {
  await db?.close();
});

describe("demo schedule (pure)", () => {
  it("is a double round robin: every pair meets twice, once at each ground, ten fixtures a match day", () => {
    const rounds = doubleRoundRobin(CLUBS);
    expect(rounds.length).toBe(38);
    const seen = new Map<string, number>();
    for (const pairs of rounds) {
      expect(pairs.length).toBe(10);
      expect(new Set(pairs.flat()).size).toBe(20);
      for (const [home, away] of pairs) seen.set(`${home}|${away}`, (seen.get(`${home}|${away}`) ?? 0) + 1);
    }
    expect(seen.size).toBe(380);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it("is deterministic for a given now", () => {
    const a = buildDemoPlan(NOW);
    const b = buildDemoPlan(NOW);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe("seedDemo", () => {
  it("loads into an empty database", () => {
    expect(seeded).toBe(true);
  });

  it("creates the 20 clubs' 380 fixtures over 38 match days", async () => {
    const [row] = await db.sql`
      select count(*)::int as fixtures, count(distinct match_day)::int as match_days,
             count(distinct home_team)::int as clubs, max(match_day)::int as last
        from public.fixtures where league = ${LEAGUE} and season = ${SEASON}`;
    expect(row).toEqual({ fixtures: 380, match_days: 38, clubs: 20, last: 38 });
    const clubs = await db.sql`select distinct home_team from public.fixtures order by 1`;
    expect(clubs.map((c) => c.home_team)).toEqual([...CLUBS].sort());
    const [{ n }] = await db.sql`select count(*)::int as n from public.matchdays where league = ${LEAGUE} and season = ${SEASON}`;
    expect(n).toBe(38);
  });

  it("opens the current match day about three days ahead, with earlier match days complete", async () => {
    const comps = await db.sql`select distinct current_match_day from public.competitions`;
    expect(comps.map((c) => c.current_match_day)).toEqual([CURRENT_MATCH_DAY]);
    const [md] = await db.sql<{ t: Date }[]>`
      select first_kickoff_time as t from public.matchdays
       where league = ${LEAGUE} and season = ${SEASON} and match_day = ${CURRENT_MATCH_DAY}`;
    const ahead = (md.t.getTime() - NOW.getTime()) / DAY;
    expect(ahead).toBeGreaterThan(2.4);
    expect(ahead).toBeLessThan(3.6);
    const [prev] = await db.sql<{ t: Date }[]>`
      select first_kickoff_time as t from public.matchdays
       where league = ${LEAGUE} and season = ${SEASON} and match_day = ${CURRENT_MATCH_DAY - 1}`;
    expect(prev.t.getTime()).toBeLessThan(NOW.getTime());
    const [status] = await db.sql`
      select bool_and(status = 'complete' and result is not null) filter (where match_day < ${CURRENT_MATCH_DAY}) as past_complete,
             bool_and(status = 'pending' and home_score is null) filter (where match_day >= ${CURRENT_MATCH_DAY}) as future_pending,
             bool_and(kickoff_time < ${NOW}) filter (where match_day < ${CURRENT_MATCH_DAY}) as past_in_past
        from public.fixtures`;
    expect(status).toEqual({ past_complete: true, future_pending: true, past_in_past: true });
  });

  it("uses UK kickoff times (Wednesday seed: Sat 12:30/15:00/17:30, Sun 14:00/16:30, Mon 20:00)", async () => {
    const slots = await db.sql<{ slot: string; n: number }[]>`
      select to_char(kickoff_time at time zone 'Europe/London', 'Dy HH24:MI') as slot, count(*)::int as n
        from public.fixtures where match_day = ${CURRENT_MATCH_DAY} group by 1 order by 1`;
    expect(Object.fromEntries(slots.map((s) => [s.slot, s.n]))).toEqual({
      "Sat 12:30": 1,
      "Sat 15:00": 5,
      "Sat 17:30": 1,
      "Sun 14:00": 1,
      "Sun 16:30": 1,
      "Mon 20:00": 1,
    });
    // One match day a week: 168 hours, 167 or 169 across a UK clock change.
    const gaps = await db.sql<{ gap: number }[]>`
      select round(extract(epoch from first_kickoff_time - lag(first_kickoff_time) over (order by match_day)) / 3600)::int as gap
        from public.matchdays where league = ${LEAGUE}`;
    const weekly = gaps.map((g) => g.gap).filter((g) => g !== null);
    expect(weekly.length).toBe(37);
    expect(weekly.every((g) => g >= 167 && g <= 169)).toBe(true);
  });

  it("lets the demo accounts log in with password footycoach", async () => {
    const rows = await db.sql`
      select a.email, p.username, p.role, p.time_zone,
             a.password_hash = extensions.crypt(${DEMO_PASSWORD}, a.password_hash) as ok,
             a.password_hash = extensions.crypt('wrong', a.password_hash) as wrong,
             age(${NOW}::timestamptz, p.date_of_birth::timestamptz) >= interval '18 years' as adult
        from account.accounts a join public.profiles p on p.id = a.id
       where a.email in ('player@footycoach.test', 'admin@footycoach.test') order by a.email`;
    expect(rows).toEqual([
      {
        email: "admin@footycoach.test",
        username: "DemoAdmin",
        role: "admin",
        time_zone: "Europe/London",
        ok: true,
        wrong: false,
        adult: true,
      },
      {
        email: "player@footycoach.test",
        username: "DemoPlayer",
        role: "player",
        time_zone: "Europe/London",
        ok: true,
        wrong: false,
        adult: true,
      },
    ]);
    const [{ players, hashes }] = await db.sql`
      select count(*)::int as players, count(distinct password_hash)::int as hashes from account.accounts`;
    expect(players).toBeGreaterThanOrEqual(32);
    expect(hashes).toBe(1);
  });

  it("creates the six demo competitions with consistent memberships", async () => {
    const comps = await db.sql`
      select c.name, c.type, c.visibility, c.registration_status, c.start_match_day, c.player_count,
             (select count(*)::int from public.user_selections us where us.competition_id = c.id) as members,
             c.first_kickoff_time is not null as has_kickoff
        from public.competitions c order by c.type, c.name`;
    expect(comps.length).toBe(6);
    expect(comps.every((c) => c.player_count === c.members)).toBe(true);
    expect(comps.every((c) => c.has_kickoff)).toBe(true);
    const summary = comps.map((c) => `${c.type}/${c.visibility}/${c.registration_status}/${c.start_match_day}`).sort();
    expect(summary).toEqual([
      `knockout/private/open/${CURRENT_MATCH_DAY}`,
      `knockout/public/closed/${CURRENT_MATCH_DAY - 3}`,
      `knockout/public/open/${CURRENT_MATCH_DAY}`,
      "scout/public/open/1",
      "season/public/closed/1",
      `season/public/open/${CURRENT_MATCH_DAY}`,
    ]);
    const [priv] = await db.sql`
      select c.registration_key, p.username from public.competitions c join public.profiles p on p.id = c.created_by
       where c.visibility = 'private'`;
    expect(priv).toEqual({ registration_key: PRIVATE_REGISTRATION_KEY, username: "DemoPlayer" });
    const [scout] =
      await db.sql`select prize_title, (select count(*)::int from public.tickets t where t.target_competition_id = c.id and not t.used) as tickets
                                   from public.competitions c where type = 'scout'`;
    expect(scout.prize_title).toBeTruthy();
    expect(scout.tickets).toBeGreaterThanOrEqual(32);
  });

  it("gives the running season picks for every past match day of every member", async () => {
    const [row] = await db.sql`
      select count(distinct us.user_id)::int as members,
             (select count(*)::int from public.team_selections ts where ts.competition_id = c.id and ts.match_day < ${CURRENT_MATCH_DAY}) as picks
        from public.competitions c join public.user_selections us on us.competition_id = c.id
       where c.type = 'season' and c.start_match_day = 1
       group by c.id`;
    expect(row.members).toBeGreaterThan(10);
    expect(row.picks).toBe(row.members * (CURRENT_MATCH_DAY - 1));
  });

  it("keeps knockout picks legal: no team twice, eliminations on a lost or drawn pick, survivors keep picking", async () => {
    const reused = await db.sql`
      select ts.user_id, ts.competition_id, ts.selected_team
        from public.team_selections ts join public.competitions c on c.id = ts.competition_id
       where c.type = 'knockout' group by 1, 2, 3 having count(*) > 1`;
    expect(reused).toEqual([]);

    const running = await db.sql`
      select us.status, us.knocked_out_on, p.username,
             (select array_agg(ts.match_day order by ts.match_day) from public.team_selections ts
               where ts.user_id = us.user_id and ts.competition_id = us.competition_id) as pick_days,
             (select f.result = case when ts.prediction = 'home_win' then 'home_win' else 'away_win' end
                from public.team_selections ts join public.fixtures f on f.id = ts.fixture_id
               where ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = us.knocked_out_on) as won_on_exit
        from public.user_selections us
        join public.competitions c on c.id = us.competition_id
        join public.profiles p on p.id = us.user_id
       where c.type = 'knockout' and c.registration_status = 'closed'`;
    const eliminated = running.filter((r) => r.status === "eliminated");
    const stillIn = running.filter((r) => r.status === "active");
    expect(eliminated.length).toBeGreaterThan(0);
    expect(stillIn.length).toBeGreaterThan(eliminated.length);
    for (const e of eliminated) {
      expect(e.won_on_exit).toBe(false);
      expect(e.pick_days.at(-1)).toBe(e.knocked_out_on); // no picks after going out
    }
    expect(stillIn.find((r) => r.username === "DemoPlayer")).toBeTruthy();
    const start = CURRENT_MATCH_DAY - 3;
    for (const s of stillIn) expect(s.pick_days.slice(0, 3)).toEqual([start, start + 1, start + 2]);
  });

  it("hides other players' current picks from DemoPlayer until the deadline (outside the competitions DemoPlayer created)", async () => {
    const [{ id }] = await db.sql`select id from public.profiles where username = 'DemoPlayer'`;
    const [{ deadline }] = await db.sql`select public.matchday_deadline(${LEAGUE}, ${SEASON}, ${CURRENT_MATCH_DAY}) as deadline`;
    const visible = (now: Date) =>
      asUser(
        db.sql,
        id,
        (tx) => tx`
        select count(*)::int as n from public.team_selections ts
         where ts.match_day = ${CURRENT_MATCH_DAY} and ts.user_id <> ${id}
           -- A creator sees (and manages) the picks of their own competition (migration 20261124140100).
           and not exists (select 1 from public.competitions c where c.id = ts.competition_id and c.created_by = ${id})`,
        { now },
      );
    expect((await visible(NOW))[0].n).toBe(0);
    expect((await visible(new Date(deadline.getTime() + 1000)))[0].n).toBeGreaterThan(0);
  });

  it("sets up the Scout: DemoPlayer's tickets, scored entries with every badge, 50+ other entrants, an open match day", async () => {
    const [{ id }] = await db.sql`select id from public.profiles where username = 'DemoPlayer'`;
    const [scout] = await db.sql`select id from public.competitions where type = 'scout'`;
    const [state] = await asUser(db.sql, id, (tx) => tx`select * from public.get_scout_state(${scout.id})`, { now: NOW });
    expect(state).toMatchObject({ current_match_day: CURRENT_MATCH_DAY, locked: false, footycoach_tickets: 1, referral_tickets: 2 });
    expect(state.prize_title).toBeTruthy();

    const [{ others }] = await db.sql`
      select count(distinct user_id)::int as others from public.scout_entries where user_id <> ${id} and match_day < ${CURRENT_MATCH_DAY}`;
    expect(others).toBeGreaterThanOrEqual(50);
    const badges = await db.sql`
      select distinct p.points_awarded from public.scout_predictions p join public.scout_entries e on e.id = p.scout_entry_id
       where e.user_id = ${id} order by 1`;
    expect(badges.map((b) => b.points_awarded)).toEqual([0, 1, 2, 3, 5]);
    const board = await asUser(
      db.sql,
      id,
      (tx) => tx`select * from public.get_scout_leaderboard_matchday(${LEAGUE}, ${SEASON}, ${CURRENT_MATCH_DAY - 1})`,
      { now: NOW },
    );
    expect(board.length).toBeGreaterThanOrEqual(50);
    expect(board[0].total_points).toBeGreaterThan(0);
    const season = await asUser(db.sql, id, (tx) => tx`select * from public.get_scout_leaderboard_season(${LEAGUE}, ${SEASON})`, {
      now: NOW,
    });
    expect(season.some((r) => r.user_id === id)).toBe(true);
    const [{ current }] = await db.sql`
      select count(*)::int as current from public.scout_entries where match_day = ${CURRENT_MATCH_DAY} and user_id <> ${id}`;
    expect(current).toBeGreaterThan(0);
  });

  it("does nothing the second time", async () => {
    const before = await db.sql`select (select count(*) from account.accounts)::int as a, (select count(*) from public.fixtures)::int as f`;
    expect(await seedDemo(db.sql, new Date(NOW.getTime() + 30 * DAY))).toBe(false);
    const after = await db.sql`select (select count(*) from account.accounts)::int as a, (select count(*) from public.fixtures)::int as f`;
    expect(after).toEqual(before);
  });
});
