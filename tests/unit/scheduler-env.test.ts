/**
 * The scheduler Worker's configuration (workers/scheduler/env.ts): the switch that sends Web Push to a local push
 * service (PUSH_ENDPOINT_OVERRIDE) is for development and tests only, and only to this machine.
 */
import { describe, expect, it } from "vitest";
import { feedNotConfigured, pushNotConfigured, readSchedulerEnv, type SchedulerBindings } from "../../workers/scheduler/env";

const VAPID_PUBLIC_KEY = `B${"A".repeat(86)}`;
const VAPID_PRIVATE_KEY = "A".repeat(43);

/** Fresh bindings every call: readSchedulerEnv caches per bindings object. */
function bindings(vars: Partial<Omit<SchedulerBindings, "HYPERDRIVE" | "PUSH_QUEUE">>): SchedulerBindings {
  return { HYPERDRIVE: {} as Hyperdrive, PUSH_QUEUE: {} as SchedulerBindings["PUSH_QUEUE"], ...vars };
}

/** The push problems of a configuration (push settings never stop the Worker: they turn pushes off). */
const problems = (b: SchedulerBindings) => readSchedulerEnv(b).pushProblems.join("; ");

const production = { ENVIRONMENT: "production", VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY };

describe("readSchedulerEnv: PUSH_ENDPOINT_OVERRIDE", () => {
  it("is accepted in development and test when it points at this machine", () => {
    for (const ENVIRONMENT of ["development", "test"]) {
      for (const url of ["http://127.0.0.1:29397", "http://localhost:8080", "http://[::1]:9000", "https://127.0.0.1"]) {
        expect(readSchedulerEnv(bindings({ ENVIRONMENT, PUSH_ENDPOINT_OVERRIDE: url })).PUSH_ENDPOINT_OVERRIDE, url).toBe(url);
      }
    }
  });

  it("is refused in production, and without ENVIRONMENT (which is production)", () => {
    expect(problems(bindings({ ...production, PUSH_ENDPOINT_OVERRIDE: "http://127.0.0.1:29397" }))).toContain(
      "PUSH_ENDPOINT_OVERRIDE cannot be set in production",
    );
    expect(problems(bindings({ VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, PUSH_ENDPOINT_OVERRIDE: "http://127.0.0.1:1" }))).toContain(
      "PUSH_ENDPOINT_OVERRIDE cannot be set in production",
    );
  });

  it("is refused when it points off this machine, in any environment", () => {
    for (const url of ["http://10.0.0.1:8080", "http://169.254.169.254", "https://evil.example", "http://127.0.0.1.evil.example"]) {
      expect(problems(bindings({ ENVIRONMENT: "test", PUSH_ENDPOINT_OVERRIDE: url })), url).toContain(
        "PUSH_ENDPOINT_OVERRIDE must be a local push service (http or https on 127.0.0.1, localhost or [::1])",
      );
    }
  });

  it("is off when unset", () => {
    expect(readSchedulerEnv(bindings({ ...production })).PUSH_ENDPOINT_OVERRIDE).toBe("");
  });
});

describe("readSchedulerEnv: push settings never stop the game jobs", () => {
  it("reads a production Worker without VAPID keys, with push reported as not configured", () => {
    const env = readSchedulerEnv(bindings({ ENVIRONMENT: "production" }));
    expect(env.ENVIRONMENT).toBe("production");
    expect(pushNotConfigured(env)).toBe("push not configured: push: production needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY");
  });

  it("names a malformed key without its value", () => {
    const env = readSchedulerEnv(bindings({ ...production, VAPID_PRIVATE_KEY: "not-a-key-secret-value" }));
    expect(pushNotConfigured(env)).toMatch(/^push not configured: VAPID_PRIVATE_KEY: /);
    expect(pushNotConfigured(env)).not.toContain("not-a-key-secret-value");
  });

  it("has nothing to report with both keys", () => {
    expect(pushNotConfigured(readSchedulerEnv(bindings({ ...production })))).toBeNull();
  });

  it("still refuses an unknown ENVIRONMENT", () => {
    expect(() => readSchedulerEnv(bindings({ ENVIRONMENT: "prod" }))).toThrow(/scheduler configuration: ENVIRONMENT/);
  });
});

describe("readSchedulerEnv: FCM_API_URL", () => {
  it("must be FCM's own host in production; anything local in development and tests", () => {
    expect(readSchedulerEnv(bindings({ ...production })).FCM_API_URL).toBe("https://fcm.googleapis.com");
    expect(problems(bindings({ ...production, FCM_API_URL: "https://10.0.0.1" }))).toContain(
      "FCM_API_URL must be https://fcm.googleapis.com in production",
    );
    expect(readSchedulerEnv(bindings({ ENVIRONMENT: "test", FCM_API_URL: "http://127.0.0.1:29396" })).FCM_API_URL).toBe(
      "http://127.0.0.1:29396",
    );
  });
});

describe("readSchedulerEnv: the data feed's settings", () => {
  it("reads football-data.org v4 by default, without a token until one is set", () => {
    const env = readSchedulerEnv(bindings({ ENVIRONMENT: "test" }));
    expect(env.FOOTBALL_DATA_URL).toBe("https://api.football-data.org/v4");
    expect(env.FOOTBALL_DATA_TOKEN).toBe("");
    expect(feedNotConfigured(env)).toBeNull();
    expect(readSchedulerEnv(bindings({ ENVIRONMENT: "test", FOOTBALL_DATA_TOKEN: "abc123DEF" })).FOOTBALL_DATA_TOKEN).toBe("abc123DEF");
  });

  it("turns only the feed off for a plain-http feed in production (the token travels in a header) or an odd token", () => {
    const env = readSchedulerEnv(bindings({ ...production, FOOTBALL_DATA_URL: "http://127.0.0.1:9/v4" }));
    expect(feedNotConfigured(env)).toContain("production needs an https FOOTBALL_DATA_URL");
    expect(pushNotConfigured(env)).toBeNull();
    expect(readSchedulerEnv(bindings({ ENVIRONMENT: "test", FOOTBALL_DATA_URL: "http://127.0.0.1:9/v4" })).FOOTBALL_DATA_URL).toBe(
      "http://127.0.0.1:9/v4",
    );
    const odd = readSchedulerEnv(bindings({ ENVIRONMENT: "test", FOOTBALL_DATA_TOKEN: "token with spaces" }));
    expect(feedNotConfigured(odd)).toMatch(/^feed not configured: FOOTBALL_DATA_TOKEN: /);
    expect(feedNotConfigured(odd)).not.toContain("token with spaces");
  });
});

describe("readSchedulerEnv: LIVE (the web Worker's LiveMatchDay objects, decision 022)", () => {
  const namespace = { idFromName: () => ({}), get: () => ({}) } as unknown as SchedulerBindings["LIVE"];

  it("is optional outside production: without it the feed tells no page and nothing is reported", () => {
    for (const ENVIRONMENT of ["development", "test"]) {
      const env = readSchedulerEnv(bindings({ ENVIRONMENT }));
      expect(env.LIVE).toBeNull();
      expect(env.liveProblems).toEqual([]);
    }
  });

  it("is required in production (a problem, not a failure: the feed still runs)", () => {
    expect(readSchedulerEnv(bindings(production)).liveProblems).toEqual([
      'LIVE: production needs the LiveMatchDay binding (durable_objects, script_name = "footycoach-web")',
    ]);
    const env = readSchedulerEnv(bindings({ ...production, LIVE: namespace }));
    expect(env.liveProblems).toEqual([]);
    expect(env.LIVE).toBe(namespace);
  });

  it("must be a Durable Object binding, in any environment", () => {
    const wrong = { fetch: () => null } as unknown as SchedulerBindings["LIVE"];
    const env = readSchedulerEnv(bindings({ ENVIRONMENT: "test", LIVE: wrong }));
    expect(env.LIVE).toBeNull();
    expect(env.liveProblems).toEqual(["LIVE: must be a Durable Object binding (LiveMatchDay)"]);
  });
});
