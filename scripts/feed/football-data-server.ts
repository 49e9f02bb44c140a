/**
 * A local server that speaks football-data.org API v4 for what FootyCoach reads (GET
 * /v4/competitions/{code}/matches?season={year}): the X-Auth-Token check (403, or 401 when asked), the plan's
 * per-minute limit with its headers (X-Requests-Available-Minute, X-RequestCounter-Reset) and 429 with
 * Retry-After past it, the v4 envelope and match shape. Never the real service: the tests and the local feed
 * simulator (scripts/feed-simulator.ts) run the scheduler against this.
 *
 * A control API under /__control (no token) lets tests set each competition's matches, change one match, script
 * the next answers (a status, malformed JSON, a delay, a dropped connection), take the service down, change the
 * limit or the auth status, and read the requests it received.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { V4MatchData } from "./v4-matches";

/** A scripted answer: a status with a JSON body, or `raw` text (malformed JSON), or a dropped connection. */
export interface ScriptedResponse {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  drop?: boolean;
}

export interface ReceivedRequest {
  at: string;
  method: string;
  path: string;
  code: string | null;
  season: string | null;
  token: string | null;
  status: number;
}

export interface FootballDataServerOptions {
  port?: number;
  host?: string;
  token: string;
  /** Requests a minute per token (the free plan's 10 by default). */
  limitPerMinute?: number;
  /** The answer to a missing or wrong token: 403 (the API's usual) or 401. */
  authFailureStatus?: 401 | 403;
  /** Real time by default; the rate-limit window follows it. */
  now?: () => number;
}

export interface FootballDataServer {
  /** The API base, e.g. http://127.0.0.1:29395/v4 (FOOTBALL_DATA_URL). */
  url: string;
  origin: string;
  port: number;
  setMatches(code: string, season: number, matches: V4MatchData[]): void;
  matches(code: string, season: number): V4MatchData[];
  close(): Promise<void>;
}

const COMPETITIONS: Record<string, { id: number; name: string; area: { id: number; name: string; code: string } }> = {
  PL: { id: 2021, name: "Premier League", area: { id: 2072, name: "England", code: "ENG" } },
  ELC: { id: 2016, name: "Championship", area: { id: 2072, name: "England", code: "ENG" } },
  PD: { id: 2014, name: "Primera Division", area: { id: 2224, name: "Spain", code: "ESP" } },
  SA: { id: 2019, name: "Serie A", area: { id: 2114, name: "Italy", code: "ITA" } },
  BL1: { id: 2002, name: "Bundesliga", area: { id: 2088, name: "Germany", code: "DEU" } },
  FL1: { id: 2015, name: "Ligue 1", area: { id: 2081, name: "France", code: "FRA" } },
};

const key = (code: string, season: number | string) => `${code.toUpperCase()}|${season}`;

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as unknown) : {};
}

/** Merges a patch into a match (score parts merged one level deep); lastUpdated moves to now unless given. */
function patchMatch(match: V4MatchData, patch: Partial<V4MatchData>, now: number): V4MatchData {
  const score = patch.score ? { ...match.score, ...patch.score } : match.score;
  return { ...match, ...patch, score, lastUpdated: patch.lastUpdated ?? new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z") };
}

export async function startFootballDataServer(opts: FootballDataServerOptions): Promise<FootballDataServer> {
  const now = opts.now ?? Date.now;
  const competitions = new Map<string, V4MatchData[]>();
  const scripted: { code: string | null; season: string | null; response: ScriptedResponse }[] = [];
  const received: ReceivedRequest[] = [];
  let limit = opts.limitPerMinute ?? 10;
  let authFailure: 401 | 403 = opts.authFailureStatus ?? 403;
  let token = opts.token;
  // the service down: every API request answers this status (or the connection drops) until set back to null
  let down: number | "drop" | null = null;
  // per token: the minute window's start and the requests counted in it
  const windows = new Map<string, { start: number; count: number }>();

  async function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const parts = url.pathname.split("/").filter(Boolean).slice(1); // after __control
    try {
      if (req.method === "POST" && parts[0] === "reset") {
        competitions.clear();
        scripted.length = 0;
        received.length = 0;
        windows.clear();
        limit = opts.limitPerMinute ?? 10;
        authFailure = opts.authFailureStatus ?? 403;
        token = opts.token;
        down = null;
        return json(res, 200, { ok: true });
      }
      if (parts[0] === "competitions" && parts[1] && parts[2]) {
        const k = key(parts[1], parts[2]);
        if (req.method === "PUT" && parts.length === 3) {
          const body = (await readBody(req)) as { matches?: V4MatchData[] };
          competitions.set(k, body.matches ?? []);
          return json(res, 200, { ok: true, count: competitions.get(k)!.length });
        }
        if (req.method === "GET" && parts.length === 3) return json(res, 200, { matches: competitions.get(k) ?? [] });
        if (req.method === "PATCH" && parts[3] === "matches" && parts[4]) {
          const id = Number(parts[4]);
          const list = competitions.get(k) ?? [];
          const i = list.findIndex((m) => m.id === id);
          if (i < 0) return json(res, 404, { message: "no such match" });
          list[i] = patchMatch(list[i], (await readBody(req)) as Partial<V4MatchData>, now());
          return json(res, 200, list[i]);
        }
      }
      if (req.method === "POST" && parts[0] === "respond") {
        const body = (await readBody(req)) as { code?: string; season?: number | string; responses: ScriptedResponse[] };
        for (const response of body.responses ?? []) {
          scripted.push({ code: body.code?.toUpperCase() ?? null, season: body.season != null ? String(body.season) : null, response });
        }
        return json(res, 200, { ok: true, queued: scripted.length });
      }
      if (req.method === "POST" && parts[0] === "settings") {
        const body = (await readBody(req)) as {
          limitPerMinute?: number;
          authFailureStatus?: 401 | 403;
          token?: string;
          down?: number | "drop" | null;
        };
        if (body.limitPerMinute !== undefined) limit = body.limitPerMinute;
        if (body.down !== undefined) down = body.down;
        if (body.authFailureStatus !== undefined) authFailure = body.authFailureStatus;
        if (body.token !== undefined) token = body.token;
        windows.clear();
        return json(res, 200, { ok: true });
      }
      if (req.method === "GET" && parts[0] === "requests") {
        const code = url.searchParams.get("code")?.toUpperCase() ?? null;
        const season = url.searchParams.get("season");
        return json(
          res,
          200,
          received.filter((r) => (!code || r.code === code) && (!season || r.season === season)),
        );
      }
    } catch (error) {
      return json(res, 400, { message: String((error as Error)?.message ?? error) });
    }
    return json(res, 404, { message: "unknown control call" });
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const match = /^\/v4\/competitions\/([A-Za-z0-9]+)\/matches\/?$/.exec(url.pathname);
    const code = match ? match[1].toUpperCase() : null;
    const season = url.searchParams.get("season");
    const sent = req.headers["x-auth-token"];
    const given = typeof sent === "string" ? sent : null;
    const log = (status: number) =>
      received.push({
        at: new Date(now()).toISOString(),
        method: req.method ?? "GET",
        path: url.pathname + url.search,
        code,
        season,
        token: given,
        status,
      });

    if (down === "drop") {
      log(0);
      req.socket.destroy();
      return;
    }
    if (down !== null) {
      log(down);
      return json(res, down, { message: "Service unavailable", errorCode: down });
    }

    if (given !== token) {
      log(authFailure);
      return json(res, authFailure, {
        message:
          authFailure === 401
            ? "Your API token is invalid."
            : "The resource you are looking for is restricted and apparently not within your permissions. Please check your subscription.",
        errorCode: authFailure,
      });
    }

    // the plan's minute window (per token)
    const t = now();
    let w = windows.get(given);
    if (!w || t - w.start >= 60_000) {
      w = { start: t, count: 0 };
      windows.set(given, w);
    }
    const reset = Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
    if (w.count >= limit) {
      log(429);
      return json(
        res,
        429,
        { message: `You reached your request limit. Wait ${reset} seconds.`, errorCode: 429 },
        { "Retry-After": String(reset), "X-RequestCounter-Reset": String(reset), "X-Requests-Available-Minute": "0" },
      );
    }
    w.count++;
    const limitHeaders = {
      "X-API-Version": "v4",
      "X-Authenticated-Client": "FootyCoach local",
      "X-Requests-Available-Minute": String(Math.max(0, limit - w.count)),
      "X-RequestCounter-Reset": String(reset),
    };

    const i = scripted.findIndex((s) => (!s.code || s.code === code) && (!s.season || s.season === season));
    if (i >= 0) {
      const [{ response }] = scripted.splice(i, 1);
      if (response.delayMs) await new Promise((r) => setTimeout(r, response.delayMs));
      if (response.drop) {
        log(0);
        req.socket.destroy();
        return;
      }
      const status = response.status ?? 200;
      log(status);
      res.writeHead(status, { "Content-Type": "application/json", ...limitHeaders, ...response.headers });
      res.end(response.raw ?? JSON.stringify(response.body ?? {}));
      return;
    }

    const competition = code ? COMPETITIONS[code] : undefined;
    const list = code && season ? competitions.get(key(code, season)) : undefined;
    if (!competition || !season || !/^\d{4}$/.test(season) || !list) {
      log(404);
      return json(res, 404, { message: "The resource you are looking for does not exist.", errorCode: 404 }, limitHeaders);
    }
    log(200);
    const year = Number(season);
    const seasonNode = { id: year * 10 + competition.id, startDate: `${year}-08-01`, endDate: `${year + 1}-05-31`, winner: null };
    const competitionNode = { id: competition.id, name: competition.name, code, type: "LEAGUE", emblem: null };
    const sorted = [...list].sort((a, b) => (a.matchday ?? 0) - (b.matchday ?? 0) || a.utcDate.localeCompare(b.utcDate) || a.id - b.id);
    json(
      res,
      200,
      {
        filters: { season: String(year) },
        resultSet: {
          count: sorted.length,
          first: sorted[0]?.utcDate.slice(0, 10) ?? null,
          last: sorted[sorted.length - 1]?.utcDate.slice(0, 10) ?? null,
          played: sorted.filter((m) => m.status === "FINISHED" || m.status === "AWARDED").length,
        },
        competition: competitionNode,
        matches: sorted.map((m) => ({
          area: competition.area,
          competition: competitionNode,
          season: seasonNode,
          stage: "REGULAR_SEASON",
          group: null,
          odds: { msg: "Activate Odds-Package in User-Panel to retrieve odds." },
          referees: [],
          ...m,
        })),
      },
      limitHeaders,
    );
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const handler = url.pathname.startsWith("/__control/") ? control(req, res, url) : api(req, res, url);
    handler.catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { message: String((error as Error)?.message ?? error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  return {
    url: `${origin}/v4`,
    origin,
    port,
    setMatches: (code, season, matches) => competitions.set(key(code, season), matches),
    matches: (code, season) => competitions.get(key(code, season)) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
