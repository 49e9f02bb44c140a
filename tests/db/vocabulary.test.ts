/**
 * The creation vocabulary lives twice on purpose: SQL enforces it (private.create_competition and
 * create_private_competition), app/lib/competition-options.ts is what the forms offer. These tests keep the two
 * equal (values and order), so a league added on one side only fails here instead of in front of a player.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_CREATE_TYPE_VALUES,
  CREATE_LEAGUES,
  CREATE_SEASONS,
  CREATE_TYPE_VALUES,
  DEFAULT_PRIZE,
  HTTPS_URL,
} from "~/lib/competition-options";
import { asUser, useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  db = await useTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe("creation vocabulary: SQL and TypeScript agree", () => {
  it("has the same types, leagues and seasons, in the same order", async () => {
    const [row] = await db.sql<{ types: string[]; adminTypes: string[]; leagues: string[]; seasons: string[] }[]>`
      select private.competition_types() as types, private.admin_competition_types() as "adminTypes",
             private.competition_leagues() as leagues, private.competition_seasons() as seasons`;
    expect(row.types).toEqual([...CREATE_TYPE_VALUES]);
    expect(row.adminTypes).toEqual([...ADMIN_CREATE_TYPE_VALUES]);
    expect(row.leagues).toEqual([...CREATE_LEAGUES]);
    expect(row.seasons).toEqual([...CREATE_SEASONS]);
  });

  it("agrees on what an https:// prize address is", async () => {
    const samples = [
      "https://example.com",
      "https://example.com/terms?a=1#b",
      "https://cdn.example.com:8443/x.png",
      "https://example.com?x",
      "http://example.com",
      "https://",
      "https://exa mple.com",
      "https://example.com/a b",
      "/terms",
      "javascript:alert(1)",
      "HTTPS://EXAMPLE.COM",
      "https://example.com/\u00e9",
      "https://example.com/é",
    ];
    const rows = await db.sql<{ url: string; ok: boolean }[]>`
      select u as url, private.is_https_url(u) as ok from unnest(${samples}::text[]) as u`;
    for (const { url, ok } of rows) expect(HTTPS_URL.test(url), url).toBe(ok);
    expect(rows.filter((r) => r.ok).length).toBe(4);
  });

  it("has the same default prize, and the columns default to the shared values", async () => {
    const [row] = await db.sql<{ prize: string; total: number }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day)
      values ('Defaults', 'knockout', 'Premier League', '2025/26', '2026-01-01', 1, 1)
      returning prize, total_match_days as total`;
    const [{ total }] = await db.sql<{ total: number }[]>`select public.default_total_match_days() as total`;
    expect(row).toEqual({ prize: DEFAULT_PRIZE, total });
  });

  it("creates a player's private competition with the type, league and season they chose (decision 028)", async () => {
    const [{ id: player }] = await db.sql<{ id: string }[]>`
      insert into account.accounts (email, password_hash) values ('vocab@example.test', 'x') returning id`;
    await db.sql`insert into public.profiles (id, username, date_of_birth, gender) values (${player}, 'Vocab', '1990-01-01', 'male')`;
    const kickoff = new Date("2026-03-07T15:00:00Z");
    await db.sql`
      insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
      values (${CREATE_LEAGUES[6]}, ${CREATE_SEASONS[1]}, 3, ${kickoff}, 'Ants', 'Bees')`;
    const [{ id }] = await asUser(
      db.sql,
      player,
      (tx) => tx<{ id: string }[]>`
      select id from public.create_private_competition('Vocab mates', 'season', ${CREATE_LEAGUES[6]}, ${CREATE_SEASONS[1]}, '2026-03-01', 3)`,
      { now: new Date("2026-03-01T12:00:00Z") },
    );
    const [row] = await db.sql`select type, league, season, prize from public.competitions where id = ${id}`;
    expect(row).toEqual({ type: "season", league: CREATE_LEAGUES[6], season: CREATE_SEASONS[1], prize: DEFAULT_PRIZE });
  });
});
