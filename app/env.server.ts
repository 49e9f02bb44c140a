import type { LiveMatchDay } from "../workers/web/live";
import type { FeedSyncBinding } from "../workers/web/feed-sync";
import { z } from "zod";

/** The Worker's bindings, as wrangler.toml, .dev.vars and `wrangler secret` provide them. */
export interface Bindings {
  HYPERDRIVE: Hyperdrive;
  /** The live match-day Durable Objects (workers/web/live.ts, decision 022); optional so tools without it still run. */
  LIVE?: DurableObjectNamespace<LiveMatchDay>;
  /** The scheduler Worker's FeedSync entrypoint ("Sync now" at once, decision 027); optional: without it a tick syncs. */
  FEED_SYNC?: FeedSyncBinding;
  ASSETS?: Fetcher;
  ENVIRONMENT?: string;
  SESSION_SECRET?: string;
  TEST_CLOCK?: string;
  GA_MEASUREMENT_ID?: string;
  ANALYTICS_SCRIPT_URL?: string;
  MAIL_PROVIDER?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  DB_EMBEDDED?: string;
  VAPID_PUBLIC_KEY?: string;
  FIREBASE_API_KEY?: string;
  FIREBASE_PROJECT_ID?: string;
  FIREBASE_MESSAGING_SENDER_ID?: string;
  FIREBASE_APP_ID?: string;
  FIREBASE_VAPID_KEY?: string;
}

/** A VAPID public key: an uncompressed P-256 point (65 bytes), base64url without padding (87 characters). */
const VapidKey = z.string().regex(/^B[A-Za-z0-9_-]{86}$/, "must be a base64url uncompressed P-256 public key (87 characters)");
/** Firebase web configuration values are public identifiers (they reach the browser). */
const FirebaseValue = z.string().regex(/^[A-Za-z0-9:_.-]{1,200}$/, "must be a Firebase web config value");

/** "FootyCoach <no-reply@example.com>" or "no-reply@example.com", as the mail provider accepts it. */
const MAIL_FROM = /^([^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)$/;

const EnvSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]).default("production"),
    SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
    DATABASE_URL: z.string().min(1),
    TEST_CLOCK: z.enum(["enabled", "disabled"]).default("disabled"),
    GA_MEASUREMENT_ID: z
      .string()
      .regex(/^[A-Z0-9-]*$/)
      .default(""),
    ANALYTICS_SCRIPT_URL: z.string().url().default("https://www.googletagmanager.com/gtag/js"),
    MAIL_PROVIDER: z.enum(["outbox", "resend"]).default("outbox"),
    MAIL_API_KEY: z.string().default(""),
    MAIL_FROM: z.string().default("FootyCoach <no-reply@footycoach.app>"),
    /** "1" when the database is the embedded PGlite of local development. */
    DB_EMBEDDED: z.enum(["0", "1"]).default("0"),
    /** Web Push (decision 014): the application server's public key; empty turns browser push off. */
    VAPID_PUBLIC_KEY: z.union([z.literal(""), VapidKey]).default(""),
    /** The FCM path: all five set, or none (then standard Web Push with VAPID_PUBLIC_KEY). */
    FIREBASE_API_KEY: z.union([z.literal(""), FirebaseValue]).default(""),
    FIREBASE_PROJECT_ID: z.union([z.literal(""), FirebaseValue]).default(""),
    FIREBASE_MESSAGING_SENDER_ID: z.union([z.literal(""), z.string().regex(/^[0-9]{1,30}$/)]).default(""),
    FIREBASE_APP_ID: z.union([z.literal(""), FirebaseValue]).default(""),
    FIREBASE_VAPID_KEY: z.union([z.literal(""), VapidKey]).default(""),
  })
  .superRefine((env, ctx) => {
    // A movable clock is a test tool; production must never honour it.
    if (env.ENVIRONMENT === "production" && env.TEST_CLOCK === "enabled") {
      ctx.addIssue({ code: "custom", message: "TEST_CLOCK cannot be enabled in production" });
    }
    if (env.ENVIRONMENT === "production" && env.MAIL_PROVIDER === "outbox") {
      ctx.addIssue({ code: "custom", message: "production needs a real MAIL_PROVIDER" });
    }
    // A provider without its key would start and then fail at the first reset mail: refused with the rest.
    if (env.MAIL_PROVIDER === "resend" && !env.MAIL_API_KEY.trim()) {
      ctx.addIssue({ code: "custom", path: ["MAIL_API_KEY"], message: "MAIL_API_KEY is required with MAIL_PROVIDER=resend" });
    }
    if (!MAIL_FROM.test(env.MAIL_FROM)) {
      ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: 'MAIL_FROM must be "Name <address@domain>" or an address' });
    }
    const firebase = [
      env.FIREBASE_API_KEY,
      env.FIREBASE_PROJECT_ID,
      env.FIREBASE_MESSAGING_SENDER_ID,
      env.FIREBASE_APP_ID,
      env.FIREBASE_VAPID_KEY,
    ];
    if (firebase.some(Boolean) && !firebase.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        message: "FIREBASE_API_KEY, FIREBASE_PROJECT_ID, FIREBASE_MESSAGING_SENDER_ID, FIREBASE_APP_ID and FIREBASE_VAPID_KEY go together",
      });
    }
  });

/** The browser's push configuration (public values only): Firebase when configured, else Web Push with VAPID. */
export type PushConfig =
  | { kind: "fcm"; firebase: { apiKey: string; projectId: string; messagingSenderId: string; appId: string }; vapidKey: string }
  | { kind: "webpush"; vapidKey: string }
  | { kind: "off" };

export function pushConfig(env: Env): PushConfig {
  if (env.FIREBASE_API_KEY)
    return {
      kind: "fcm",
      firebase: {
        apiKey: env.FIREBASE_API_KEY,
        projectId: env.FIREBASE_PROJECT_ID,
        messagingSenderId: env.FIREBASE_MESSAGING_SENDER_ID,
        appId: env.FIREBASE_APP_ID,
      },
      vapidKey: env.FIREBASE_VAPID_KEY,
    };
  if (env.VAPID_PUBLIC_KEY) return { kind: "webpush", vapidKey: env.VAPID_PUBLIC_KEY };
  return { kind: "off" };
}

export type Env = z.infer<typeof EnvSchema>;

const cache = new WeakMap<object, Env>();

/**
 * What is wrong with a configuration, one line per problem: the binding's name and the rule it breaks, never its
 * value (these lines are logged and shown by /functions/v1/health).
 */
export class InvalidConfiguration extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid Worker configuration: ${problems.join("; ")}`);
  }
}

/** Validates the bindings once per isolate (bindings objects are stable per isolate). */
export function readEnv(bindings: Bindings): Env {
  const hit = cache.get(bindings);
  if (hit) return hit;
  const parsed = EnvSchema.safeParse({
    ...bindings,
    DATABASE_URL: bindings.HYPERDRIVE?.connectionString,
  });
  if (!parsed.success) {
    throw new InvalidConfiguration(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  cache.set(bindings, parsed.data);
  return parsed.data;
}
