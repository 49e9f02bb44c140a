import { describe, expect, it } from "vitest";
import { readSchedulerEnv, type SchedulerBindings } from "../../workers/scheduler/env";

/** The scheduler's bindings as a test Worker would have them (binding objects are only passed through). */
const bindings = (extra: Partial<SchedulerBindings> = {}) =>
  ({ HYPERDRIVE: {}, PUSH_QUEUE: {}, ENVIRONMENT: "test", ...extra }) as unknown as SchedulerBindings;

describe("the scheduler's data feed settings", () => {
  it("reads football-data.org v4 by default, without a token until one is set", () => {
    const env = readSchedulerEnv(bindings());
    expect(env.FOOTBALL_DATA_URL).toBe("https://api.football-data.org/v4");
    expect(env.FOOTBALL_DATA_TOKEN).toBe("");
    expect(readSchedulerEnv(bindings({ FOOTBALL_DATA_TOKEN: "abc123DEF" })).FOOTBALL_DATA_TOKEN).toBe("abc123DEF");
  });

  it("refuses a plain-http feed in production (the token travels in a header) and a token with odd characters", () => {
    const production = {
      ENVIRONMENT: "production",
      VAPID_PUBLIC_KEY: `B${"A".repeat(86)}`,
      VAPID_PRIVATE_KEY: "A".repeat(43),
    };
    expect(() => readSchedulerEnv(bindings({ ...production, FOOTBALL_DATA_URL: "http://127.0.0.1:9/v4" }))).toThrow(
      /production needs an https FOOTBALL_DATA_URL/,
    );
    expect(readSchedulerEnv(bindings({ FOOTBALL_DATA_URL: "http://127.0.0.1:9/v4" })).FOOTBALL_DATA_URL).toBe("http://127.0.0.1:9/v4");
    expect(() => readSchedulerEnv(bindings({ FOOTBALL_DATA_TOKEN: "token with spaces" }))).toThrow(/FOOTBALL_DATA_TOKEN/);
  });
});
