/**
 * The football-data.org v4 client of one feed tick. It keeps within the plan's limits (free: 10 requests a minute):
 * it reads X-Requests-Available-Minute and makes no request once it reaches 0, and after a 429 it makes none for
 * the rest of the tick (Retry-After, else X-RequestCounter-Reset, says when the next may go). It never retries
 * within a tick: a failure is reported with how long to wait, and the caller records it with its backoff
 * (private.record_feed_failure), so a feed that is down costs one request per league per backoff step.
 */

export type FeedFailureKind = "auth" | "rate_limited" | "unavailable" | "unreachable" | "malformed" | "refused";

export interface FeedFailure {
  kind: FeedFailureKind;
  status: number | null;
  /** What the admin panel shows as the league's last error. */
  message: string;
  retryAfterSeconds: number | null;
}

export type FeedAnswer = { ok: true; body: unknown } | { ok: false; failure: FeedFailure };

export interface FeedClientOptions {
  /** e.g. https://api.football-data.org/v4 */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Seconds from Retry-After (seconds or an HTTP date), else from X-RequestCounter-Reset; null when neither reads. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const retry = headers.get("retry-after")?.trim();
  if (retry) {
    if (/^\d{1,6}$/.test(retry)) return Number(retry);
    const at = Date.parse(retry);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const reset = headers.get("x-requestcounter-reset")?.trim();
  return reset && /^\d{1,6}$/.test(reset) ? Number(reset) : null;
}

/** The API's own explanation ({"message": ..., "errorCode": ...}), shortened, or null. */
function apiMessage(text: string): string | null {
  try {
    const message = (JSON.parse(text) as { message?: unknown })?.message;
    return typeof message === "string" && message.trim() ? message.trim().slice(0, 200) : null;
  } catch {
    return null;
  }
}

export class FootballDataClient {
  /** Requests sent this tick (answered or not). */
  requests = 0;
  private available: number | null = null;
  /** Seconds until the plan's minute counter resets, as the last answer said (X-RequestCounter-Reset). */
  private resetSeconds: number | null = null;
  private rateLimited = false;
  private readonly fetcher: typeof fetch;

  constructor(private readonly opts: FeedClientOptions) {
    // a bare `fetch` reference called later loses its binding in workerd ("Illegal invocation")
    this.fetcher = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Whether another request may go out this tick. */
  canRequest(): boolean {
    return !this.rateLimited && (this.available === null || this.available > 0);
  }

  /**
   * The last answer spent the minute's budget (X-Requests-Available-Minute: 0, not a 429, which the failure
   * carries): the seconds until its counter resets, so the caller can hold every league until then, also for the
   * requests of other ticks and of Sync now (private.pause_feed_requests). Null while requests remain.
   */
  budgetSpentForSeconds(): number | null {
    if (this.rateLimited || this.available !== 0) return null;
    return this.resetSeconds ?? 60;
  }

  /** GET /competitions/{code}/matches?season={start year}. */
  async competitionMatches(code: string, seasonYear: number): Promise<FeedAnswer> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, "")}/competitions/${encodeURIComponent(code)}/matches?season=${seasonYear}`;
    const what = `${code} ${seasonYear}`;
    this.requests++;
    let res: Response;
    let text: string;
    try {
      res = await this.fetcher(url, {
        headers: { "X-Auth-Token": this.opts.token, Accept: "application/json" },
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 20_000),
      });
      text = await res.text();
    } catch (error) {
      const reason = (error as Error)?.name === "TimeoutError" ? "no answer in time" : String((error as Error)?.message ?? error);
      return this.fail("unreachable", null, `The feed could not be reached (${reason.slice(0, 120)}).`, null);
    }

    const available = res.headers.get("x-requests-available-minute");
    if (available !== null && /^\d{1,6}$/.test(available.trim())) this.available = Number(available.trim());
    const reset = res.headers.get("x-requestcounter-reset")?.trim();
    this.resetSeconds = reset && /^\d{1,6}$/.test(reset) ? Number(reset) : null;
    const wait = retryAfterSeconds(res.headers);
    const said = apiMessage(text);

    if (res.status === 429) {
      this.rateLimited = true;
      const seconds = wait ?? 60;
      return this.fail("rate_limited", 429, `The feed's rate limit was reached (HTTP 429): next request after ${seconds} s.`, seconds);
    }
    if (res.status === 401 || res.status === 403) {
      return this.fail(
        "auth",
        res.status,
        `The feed refused the token (HTTP ${res.status}${said ? `: ${said}` : ""}). Check FOOTBALL_DATA_TOKEN and the plan.`,
        wait,
      );
    }
    if (res.status >= 500) return this.fail("unavailable", res.status, `The feed is unavailable (HTTP ${res.status}).`, wait);
    if (res.status !== 200) {
      return this.fail("refused", res.status, `The feed refused ${what} (HTTP ${res.status}${said ? `: ${said}` : ""}).`, wait);
    }
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      return this.fail("malformed", 200, "The feed answered with malformed JSON.", null);
    }
  }

  private fail(kind: FeedFailureKind, status: number | null, message: string, retry: number | null): FeedAnswer {
    return { ok: false, failure: { kind, status, message, retryAfterSeconds: retry } };
  }
}
