import { describe, expect, it } from "vitest";
import { InvalidConfiguration, pushConfig, readEnv, type Bindings } from "~/env.server";

const SECRET = "s".repeat(32);
const DATABASE_URL = "postgres://app@db.example/footycoach";

/** Fresh bindings every call: readEnv caches per bindings object. */
function bindings(vars: Partial<Record<Exclude<keyof Bindings, "HYPERDRIVE" | "ASSETS">, string>> = {}, withDatabase = true): Bindings {
  return {
    ...(withDatabase ? { HYPERDRIVE: { connectionString: DATABASE_URL } as unknown as Hyperdrive } : {}),
    SESSION_SECRET: SECRET,
    ...vars,
  } as Bindings;
}

const production = { ENVIRONMENT: "production", MAIL_PROVIDER: "resend", MAIL_API_KEY: "re_key" };

describe("readEnv", () => {
  it("fills the defaults of a development Worker", () => {
    expect(readEnv(bindings({ ENVIRONMENT: "development" }))).toEqual({
      ENVIRONMENT: "development",
      SESSION_SECRET: SECRET,
      DATABASE_URL,
      TEST_CLOCK: "disabled",
      GA_MEASUREMENT_ID: "",
      ANALYTICS_SCRIPT_URL: "https://www.googletagmanager.com/gtag/js",
      MAIL_PROVIDER: "outbox",
      MAIL_API_KEY: "",
      MAIL_FROM: "FootyCoach <no-reply@footycoach.app>",
      DB_EMBEDDED: "0",
      VAPID_PUBLIC_KEY: "",
      FIREBASE_API_KEY: "",
      FIREBASE_PROJECT_ID: "",
      FIREBASE_MESSAGING_SENDER_ID: "",
      FIREBASE_APP_ID: "",
      FIREBASE_VAPID_KEY: "",
    });
  });

  it("treats a Worker without ENVIRONMENT as production, which needs a real mail provider", () => {
    expect(() => readEnv(bindings())).toThrow("Invalid Worker configuration: : production needs a real MAIL_PROVIDER");
    const env = readEnv(bindings({ MAIL_PROVIDER: "resend", MAIL_API_KEY: "re_key" }));
    expect(env.ENVIRONMENT).toBe("production");
    expect(env.TEST_CLOCK).toBe("disabled");
  });

  it("accepts a production Worker with a real mail provider and the clock left alone", () => {
    const env = readEnv(bindings({ ...production, TEST_CLOCK: "disabled" }));
    expect(env).toMatchObject({ ENVIRONMENT: "production", MAIL_PROVIDER: "resend", TEST_CLOCK: "disabled" });
  });

  it("refuses the test clock in production", () => {
    expect(() => readEnv(bindings({ ...production, TEST_CLOCK: "enabled" }))).toThrow("TEST_CLOCK cannot be enabled in production");
  });

  it("allows the test clock outside production", () => {
    expect(readEnv(bindings({ ENVIRONMENT: "test", TEST_CLOCK: "enabled" })).TEST_CLOCK).toBe("enabled");
    expect(readEnv(bindings({ ENVIRONMENT: "development", TEST_CLOCK: "enabled" })).TEST_CLOCK).toBe("enabled");
  });

  it("refuses the outbox mail provider in production, and says both problems at once", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "production", MAIL_PROVIDER: "outbox" }))).toThrow(
      "production needs a real MAIL_PROVIDER",
    );
    expect(() => readEnv(bindings({ ENVIRONMENT: "production", TEST_CLOCK: "enabled" }))).toThrow(
      /TEST_CLOCK cannot be enabled in production.*production needs a real MAIL_PROVIDER/,
    );
  });

  it("refuses a short or missing session secret", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "development", SESSION_SECRET: "short" }))).toThrow(
      "SESSION_SECRET: SESSION_SECRET must be at least 32 characters",
    );
    expect(() => readEnv({ HYPERDRIVE: bindings().HYPERDRIVE, ENVIRONMENT: "development" })).toThrow(/SESSION_SECRET/);
  });

  it("refuses a Worker without its database binding", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "development" }, false))).toThrow(/DATABASE_URL/);
  });

  it("refuses values outside their lists", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "staging" }))).toThrow(/ENVIRONMENT/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", TEST_CLOCK: "on" }))).toThrow(/TEST_CLOCK/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", MAIL_PROVIDER: "smtp" }))).toThrow(/MAIL_PROVIDER/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", DB_EMBEDDED: "yes" }))).toThrow(/DB_EMBEDDED/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", GA_MEASUREMENT_ID: "G-1<script>" }))).toThrow(/GA_MEASUREMENT_ID/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", ANALYTICS_SCRIPT_URL: "not a url" }))).toThrow(/ANALYTICS_SCRIPT_URL/);
  });

  it("validates a bindings object once and returns the same Env for it", () => {
    const b = bindings({ ENVIRONMENT: "test" });
    const first = readEnv(b);
    expect(readEnv(b)).toBe(first);
    expect(readEnv(bindings({ ENVIRONMENT: "test" }))).not.toBe(first);
  });
});

describe("push configuration", () => {
  const VAPID = "BAeg2tB4osuky88kT3nSfEOlnGyW5BI2Arbtbjhbwl2od1xCPi1usz1YYxYjDMddhoGVqYADcXe2Xeq9bxZrGH4";
  const firebase = {
    FIREBASE_API_KEY: "AIzaSyExample-Key_1",
    FIREBASE_PROJECT_ID: "footycoach-app",
    FIREBASE_MESSAGING_SENDER_ID: "123456789012",
    FIREBASE_APP_ID: "1:123456789012:web:abc123",
    FIREBASE_VAPID_KEY: VAPID,
  };

  it("is off without keys, Web Push with a VAPID key, FCM with the Firebase config", () => {
    expect(pushConfig(readEnv(bindings({ ENVIRONMENT: "test" })))).toEqual({ kind: "off" });
    expect(pushConfig(readEnv(bindings({ ENVIRONMENT: "test", VAPID_PUBLIC_KEY: VAPID })))).toEqual({ kind: "webpush", vapidKey: VAPID });
    expect(pushConfig(readEnv(bindings({ ENVIRONMENT: "test", VAPID_PUBLIC_KEY: VAPID, ...firebase })))).toEqual({
      kind: "fcm",
      firebase: {
        apiKey: firebase.FIREBASE_API_KEY,
        projectId: "footycoach-app",
        messagingSenderId: "123456789012",
        appId: firebase.FIREBASE_APP_ID,
      },
      vapidKey: VAPID,
    });
  });

  it("refuses a malformed VAPID key and a partial Firebase config", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", VAPID_PUBLIC_KEY: "not-a-key" }))).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", FIREBASE_API_KEY: "AIzaSyExample" }))).toThrow(/go together/);
    expect(() => readEnv(bindings({ ENVIRONMENT: "test", ...firebase, FIREBASE_MESSAGING_SENDER_ID: "abc" }))).toThrow(
      /FIREBASE_MESSAGING_SENDER_ID/,
    );
  });
});

describe("readEnv: mail settings are validated with the rest", () => {
  it("refuses MAIL_PROVIDER=resend without MAIL_API_KEY, naming the binding and never a value", () => {
    expect(() => readEnv(bindings({ ENVIRONMENT: "production", MAIL_PROVIDER: "resend" }))).toThrow(
      "MAIL_API_KEY: MAIL_API_KEY is required with MAIL_PROVIDER=resend",
    );
    try {
      readEnv(bindings({ ENVIRONMENT: "production", MAIL_PROVIDER: "resend", MAIL_FROM: "no at sign" }));
    } catch (error) {
      expect((error as InvalidConfiguration).problems).toEqual([
        "MAIL_API_KEY: MAIL_API_KEY is required with MAIL_PROVIDER=resend",
        'MAIL_FROM: MAIL_FROM must be "Name <address@domain>" or an address',
      ]);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });

  it("accepts both spellings of MAIL_FROM", () => {
    for (const MAIL_FROM of ["FootyCoach <no-reply@footycoach.app>", "no-reply@footycoach.app"]) {
      expect(readEnv(bindings({ ...production, MAIL_FROM })).MAIL_FROM).toBe(MAIL_FROM);
    }
  });
});
