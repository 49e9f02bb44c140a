/**
 * Shared arrangement for the results-* test files: players, an admin, a league of fixtures per scenario,
 * competitions, memberships and picks written as the owner; results entered through the admin API.
 */
import type postgres from "postgres";
import { expect } from "vitest";
import { asUser, useTestDatabase } from "../support/pg";

export type TestDb = Awaited<ReturnType<typeof useTestDatabase>>;

export const SEASON = "2025/26";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const BASE = new Date("2026-08-01T14:00:00Z");
/** First kickoff of match day d of every scenario league. */
export const kickoff = (d: number) => new Date(BASE.getTime() + (d - 1) * 7 * DAY);
/** Four fixtures per match day: T1-T2, T3-T4, T5-T6, T7-T8. */
export const HOMES = ["T1", "T3", "T5", "T7"] as const;

export class World {
  ids: Record<string, string> = {};
  admin = "";
  private leagues = 0;

  constructor(public db: TestDb) {}

  async player(username: string, role: "player" | "admin" = "player"): Promise<string> {
    const [{ id }] = await this.db.sql<{ id: string }[]>`
      insert into account.accounts (email, password_hash) values (${`${username.toLowerCase()}@example.test`}, 'x')
      returning id`;
    await this.db.sql`
      insert into public.profiles (id, username, date_of_birth, gender, role)
      values (${id}, ${username}, '1990-01-01', 'female', ${role})`;
    this.ids[username] = id;
    if (role === "admin") this.admin = id;
    return id;
  }

  /** A fresh league with match days 1..days of four pending fixtures each. */
  async league(days = 3): Promise<string> {
    const league = `Results League ${++this.leagues}`;
    for (let d = 1; d <= days; d++) {
      for (const [i, home] of HOMES.entries()) {
        const away = `T${Number(home.slice(1)) + 1}`;
        await this.db.sql`
          insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
          values (${league}, ${SEASON}, ${d}, ${new Date(kickoff(d).getTime() + i * HOUR)}, ${home}, ${away})`;
      }
    }
    return league;
  }

  async competition(
    league: string,
    type: "knockout" | "season",
    members: string[],
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const row = {
      name: `${type} ${league} ${Math.random().toString(36).slice(2, 8)}`, type, league, season: SEASON,
      start_date: "2026-07-30", start_match_day: 1, current_match_day: 1, total_match_days: 3,
      registration_status: "closed", ...extra,
    };
    const [{ id }] = await this.db.sql<{ id: string }[]>`insert into public.competitions ${this.db.sql(row)} returning id`;
    for (const name of members) {
      await this.db.sql`
        insert into public.user_selections (user_id, competition_id, league, season, match_day)
        values (${this.ids[name]}, ${id}, ${league}, ${SEASON}, ${row.start_match_day})`;
    }
    return id;
  }

  async pick(competitionId: string, name: string, matchDay: number, team: string) {
    const result = await this.db.sql`
      insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
      select ${this.ids[name]}, ${competitionId}, ${matchDay}, f.id, ${team}, 'home_win'
        from public.fixtures f
        join public.competitions c on c.id = ${competitionId} and c.league = f.league and c.season = f.season
       where f.match_day = ${matchDay} and ${team} in (f.home_team, f.away_team)`;
    expect(result.count).toBe(1);
  }

  async fixtureId(league: string, matchDay: number, home: string): Promise<number> {
    const [{ id }] = await this.db.sql<{ id: string }[]>`
      select id from public.fixtures where league = ${league} and season = ${SEASON}
         and match_day = ${matchDay} and home_team = ${home}`;
    return Number(id);
  }

  asAdmin<T>(fn: (tx: postgres.TransactionSql) => Promise<T>, now?: Date): Promise<T> {
    return asUser(this.db.sql, this.admin, fn, { now });
  }

  /** Enter a result as the admin through save_fixture_result. */
  async score(league: string, matchDay: number, home: string, hs: number, as: number): Promise<string> {
    const id = await this.fixtureId(league, matchDay, home);
    const [{ r }] = await this.asAdmin((tx) => tx<{ r: string }[]>`select public.save_fixture_result(${id}, ${hs}, ${as}) as r`);
    return r;
  }

  async postpone(league: string, matchDay: number, home: string, postponed = true): Promise<string> {
    const id = await this.fixtureId(league, matchDay, home);
    const [{ r }] = await this.asAdmin((tx) => tx<{ r: string }[]>`select public.set_fixture_postponed(${id}, ${postponed}) as r`);
    return r;
  }

  /**
   * Play a whole match day: the given scores (or "P" = postponed) by home team, every other fixture 1-0 to
   * the home side. Entered in home-team order; the last one completes the match day.
   */
  async playMatchDay(league: string, matchDay: number, scores: Partial<Record<(typeof HOMES)[number], [number, number] | "P">>) {
    for (const home of HOMES) {
      const s = scores[home] ?? [1, 0];
      if (s === "P") await this.postpone(league, matchDay, home);
      else await this.score(league, matchDay, home, s[0], s[1]);
    }
  }

  async competitionRow(id: string) {
    const [row] = await this.db.sql<{
      status: string; registration_status: string; current_match_day: number; knockout_winner: string | null;
    }[]>`select status, registration_status, current_match_day, knockout_winner from public.competitions where id = ${id}`;
    return { ...row, knockout_winner: row.knockout_winner ? this.nameOf(row.knockout_winner) : null };
  }

  nameOf(id: string): string {
    return Object.entries(this.ids).find(([, v]) => v === id)?.[0] ?? id;
  }

  /** name -> "active" | "completed" | "eliminated@n" */
  async memberships(competitionId: string): Promise<Record<string, string>> {
    const rows = await this.db.sql<{ user_id: string; status: string; knocked_out_on: number | null }[]>`
      select user_id, status, knocked_out_on from public.user_selections where competition_id = ${competitionId}`;
    return Object.fromEntries(
      rows.map((r) => [this.nameOf(r.user_id), r.status === "eliminated" ? `eliminated@${r.knocked_out_on}` : r.status]),
    );
  }

  async processed(competitionId: string): Promise<number[]> {
    const rows = await this.db.sql<{ match_day: number }[]>`
      select match_day from public.competition_matchday_results where competition_id = ${competitionId} order by 1`;
    return rows.map((r) => r.match_day);
  }
}
