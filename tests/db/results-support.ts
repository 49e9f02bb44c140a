/**
 * Shared arrangement for the results-* test files: players, an admin, a league of fixtures per scenario,
 * competitions, memberships and picks written as the owner; results entered through the admin API.
 */
import type postgres from "postgres";
import { expect } from "vitest";
import { addMember, addPick, createCompetition, createLeague, createPlayer, uniqueTag } from "../support/factories";
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
    const { id } = await createPlayer(this.db.sql, { username, role, gender: "female" });
    this.ids[username] = id;
    if (role === "admin") this.admin = id;
    return id;
  }

  /** A fresh league with match days 1..days of four pending fixtures each. */
  async league(days = 3): Promise<string> {
    const league = `Results League ${++this.leagues}`;
    const pairs = HOMES.map((home) => [home, `T${Number(home.slice(1)) + 1}`] as const);
    await createLeague(this.db.sql, { league, season: SEASON, matchDays: days, firstKickoff: BASE, pairs });
    return league;
  }

  async competition(league: string, type: "knockout" | "season", members: string[], extra: Record<string, unknown> = {}): Promise<string> {
    const { id } = await createCompetition(this.db.sql, {
      name: `${type} ${league} ${uniqueTag().slice(0, 6)}`,
      type,
      league,
      season: SEASON,
      startDate: "2026-07-30",
      startMatchDay: 1,
      totalMatchDays: 3,
      registrationStatus: "closed",
      columns: extra,
    });
    const startMatchDay = (extra.start_match_day as number | undefined) ?? 1;
    for (const name of members) await addMember(this.db.sql, id, this.ids[name], { matchDay: startMatchDay });
    return id;
  }

  async pick(competitionId: string, name: string, matchDay: number, team: string) {
    expect(await addPick(this.db.sql, { userId: this.ids[name], competitionId, matchDay, team })).toBe(1);
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

  /**
   * Enter a result as the admin through save_fixture_result. The reason is what a correction of a complete
   * result must carry (ignored by the rules for a first entry, kept in the history either way).
   */
  async score(league: string, matchDay: number, home: string, hs: number, as: number, reason = "Corrected in a test"): Promise<string> {
    const id = await this.fixtureId(league, matchDay, home);
    const [{ r }] = await this.asAdmin((tx) => tx<{ r: string }[]>`select public.save_fixture_result(${id}, ${hs}, ${as}, ${reason}) as r`);
    return r;
  }

  async postpone(league: string, matchDay: number, home: string, postponed = true, reason = "Postponed in a test"): Promise<string> {
    const id = await this.fixtureId(league, matchDay, home);
    const [{ r }] = await this.asAdmin(
      (tx) => tx<{ r: string }[]>`select public.set_fixture_postponed(${id}, ${postponed}, ${reason}) as r`,
    );
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
    const [row] = await this.db.sql<
      {
        status: string;
        registration_status: string;
        current_match_day: number;
        knockout_winner: string | null;
      }[]
    >`select status, registration_status, current_match_day, knockout_winner from public.competitions where id = ${id}`;
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
