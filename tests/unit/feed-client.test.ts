/**
 * The football-data.org v4 client against the local server that speaks the protocol (never the real service):
 * the token header, the plan's minute budget, 429 with Retry-After, 5xx, a dropped connection, malformed JSON.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FootballDataClient, retryAfterSeconds } from "../../workers/scheduler/feed/client";
import { startFootballDataServer, type FootballDataServer } from "../../scripts/feed/football-data-server";
import { buildSeason } from "../../scripts/feed/v4-matches";

const TOKEN = "unit-token-abc";
let server: FootballDataServer;

const control = (path: string, body: unknown) =>
  fetch(`${server.origin}/__control/${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());

beforeAll(async () => {
  server = await startFootballDataServer({ token: TOKEN });
});
afterAll(() => server.close());
beforeEach(async () => {
  await control("reset", {});
  server.setMatches(
    "PL",
    2025,
    buildSeason({ teams: ["A", "B", "C", "D"], firstMatchId: 1, firstTeamId: 1, firstKickoff: new Date("2033-01-01T15:00:00Z") }),
  );
});

const client = (token = TOKEN) => new FootballDataClient({ baseUrl: server.url, token, timeoutMs: 2_000 });

describe("FootballDataClient", () => {
  it("sends X-Auth-Token and reads the season's matches", async () => {
    const answer = await client().competitionMatches("PL", 2025);
    expect(answer.ok).toBe(true);
    expect(answer.ok && (answer.body as { matches: unknown[] }).matches).toHaveLength(12);
    const log = await fetch(`${server.origin}/__control/requests`).then((r) => r.json());
    expect(log).toEqual([expect.objectContaining({ path: "/v4/competitions/PL/matches?season=2025", token: TOKEN, status: 200 })]);
  });

  it("stops asking once X-Requests-Available-Minute says none are left", async () => {
    await control("settings", { limitPerMinute: 2 });
    const c = client();
    expect(c.canRequest()).toBe(true);
    await c.competitionMatches("PL", 2025);
    expect(c.canRequest()).toBe(true);
    expect(c.budgetSpentForSeconds()).toBeNull();
    await c.competitionMatches("PL", 2025);
    expect(c.canRequest()).toBe(false);
    // how long the spent budget lasts (X-RequestCounter-Reset), so no other tick or Sync now asks before then
    const seconds = c.budgetSpentForSeconds()!;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it("honours 429: the failure carries Retry-After, and the tick asks nothing more", async () => {
    await control("settings", { limitPerMinute: 1 });
    const c = client();
    await c.competitionMatches("PL", 2025);
    // a second client of the same token (another tick) meets the server's own 429
    const other = client();
    const answer = await other.competitionMatches("PL", 2025);
    expect(answer).toMatchObject({ ok: false, failure: { kind: "rate_limited", status: 429 } });
    const seconds = !answer.ok ? answer.failure.retryAfterSeconds! : 0;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(other.canRequest()).toBe(false);
  });

  it("reports a wrong token (403 or 401) with the API's words, and 5xx as unavailable", async () => {
    expect(await client("wrong").competitionMatches("PL", 2025)).toMatchObject({
      ok: false,
      failure: { kind: "auth", status: 403, message: expect.stringMatching(/^The feed refused the token \(HTTP 403: The resource/) },
    });
    await control("settings", { authFailureStatus: 401 });
    expect(await client("wrong").competitionMatches("PL", 2025)).toMatchObject({
      failure: {
        kind: "auth",
        status: 401,
        message: "The feed refused the token (HTTP 401: Your API token is invalid.). Check FOOTBALL_DATA_TOKEN and the plan.",
      },
    });
    await control("respond", { responses: [{ status: 502, raw: "<html>Bad gateway</html>", headers: { "Retry-After": "30" } }] });
    expect(await client().competitionMatches("PL", 2025)).toMatchObject({
      failure: { kind: "unavailable", status: 502, message: "The feed is unavailable (HTTP 502).", retryAfterSeconds: 30 },
    });
  });

  it("reports malformed JSON, a dropped connection and an unknown competition without throwing", async () => {
    await control("respond", { responses: [{ raw: '{"matches": [' }, { drop: true }] });
    expect(await client().competitionMatches("PL", 2025)).toMatchObject({
      failure: { kind: "malformed", message: "The feed answered with malformed JSON." },
    });
    expect(await client().competitionMatches("PL", 2025)).toMatchObject({ failure: { kind: "unreachable", status: null } });
    expect(await client().competitionMatches("XX", 2025)).toMatchObject({
      failure: {
        kind: "refused",
        status: 404,
        message: "The feed refused XX 2025 (HTTP 404: The resource you are looking for does not exist.).",
      },
    });
  });

  it("reads Retry-After in seconds or as a date, else X-RequestCounter-Reset", () => {
    const now = Date.parse("2033-01-01T12:00:00Z");
    expect(retryAfterSeconds(new Headers({ "Retry-After": "42" }), now)).toBe(42);
    expect(retryAfterSeconds(new Headers({ "Retry-After": "Sat, 01 Jan 2033 12:01:30 GMT" }), now)).toBe(90);
    expect(retryAfterSeconds(new Headers({ "X-RequestCounter-Reset": "17" }), now)).toBe(17);
    expect(retryAfterSeconds(new Headers({ "Retry-After": "soon" }), now)).toBeNull();
  });
});
