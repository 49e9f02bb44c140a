import { z } from "zod";
import type { LiveMatchDay } from "../web/live";
import type { DeliveryMessage } from "./queue";

/** The scheduler Worker's bindings (workers/scheduler/wrangler.toml, `wrangler secret` for the keys). */
export interface SchedulerBindings {
  HYPERDRIVE: Hyperdrive;
  PUSH_QUEUE: Queue<DeliveryMessage>;
  ENVIRONMENT?: string;
  /** live: send to the push services; outbox (development): keep deliveries in the push outbox (/dev/outbox). */
  PUSH_PROVIDER?: string;
  /** The web app's origin: push links are made absolute with it. */
  APP_URL?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** The FCM service account (JSON, a secret). Without it FCM tokens cannot be sent to. */
  FCM_SERVICE_ACCOUNT?: string;
  FCM_API_URL?: string;
  /**
   * Development and test only (refused in production), and only a local origin: send every Web Push request to
   * this origin (a local push service). Stored endpoints must still be on a known push service's host.
   */
  PUSH_ENDPOINT_OVERRIDE?: string;
  /** The data feed's API base (football-data.org v4; a local simulator in development and tests). */
  FOOTBALL_DATA_URL?: string;
  /** The feed's API token (X-Auth-Token; a secret). Without it a linked league records "not set" as its error. */
  FOOTBALL_DATA_TOKEN?: string;
  /**
   * The web Worker's live match-day objects (decision 022: a `[[durable_objects.bindings]]` with
   * `script_name = "footycoach-web"`): the feed job notifies them after its COMMIT. Required in production; tests
   * and tools that do not need it run without it (the feed then tells no page).
   */
  LIVE?: DurableObjectNamespace<LiveMatchDay>;
}

const base64url = (bytes: number) => z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`));

/** http(s) on the loopback interface: where the development and test push services listen. */
function isLocalOrigin(value: string): boolean {
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

const EnvSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]).default("production"),
    PUSH_PROVIDER: z.enum(["live", "outbox"]).default("live"),
    APP_URL: z.url().default("https://footycoach.app"),
    VAPID_PUBLIC_KEY: z.union([z.literal(""), base64url(65)]).default(""),
    VAPID_PRIVATE_KEY: z.union([z.literal(""), base64url(32)]).default(""),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/)
      .default("mailto:support@footycoach.app"),
    FCM_SERVICE_ACCOUNT: z.string().default(""),
    FCM_API_URL: z.url().default("https://fcm.googleapis.com"),
    PUSH_ENDPOINT_OVERRIDE: z.union([z.literal(""), z.url()]).default(""),
  })
  .superRefine((env, ctx) => {
    // The override carries every player's signed, encrypted pushes: it is for a push service on this machine
    // (tests/support/local-push-service.ts), never a way to send them somewhere else.
    if (env.PUSH_ENDPOINT_OVERRIDE && !isLocalOrigin(env.PUSH_ENDPOINT_OVERRIDE)) {
      ctx.addIssue({
        code: "custom",
        message: "PUSH_ENDPOINT_OVERRIDE must be a local push service (http or https on 127.0.0.1, localhost or [::1])",
      });
    }
    if (env.ENVIRONMENT !== "production") return;
    // A redirected push or a kept-back outbox in production would silently drop every reminder.
    if (env.PUSH_ENDPOINT_OVERRIDE) ctx.addIssue({ code: "custom", message: "PUSH_ENDPOINT_OVERRIDE cannot be set in production" });
    // FCM messages carry the players' tokens: in production they go to FCM itself and nowhere else.
    if (new URL(env.FCM_API_URL).origin !== "https://fcm.googleapis.com") {
      ctx.addIssue({ code: "custom", message: "FCM_API_URL must be https://fcm.googleapis.com in production" });
    }
    if (env.PUSH_PROVIDER === "outbox") ctx.addIssue({ code: "custom", message: "production needs PUSH_PROVIDER=live" });
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
      ctx.addIssue({ code: "custom", message: "production needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY" });
    }
  });

/** The data feed's settings: checked apart, so a bad feed setting stops the feed job only (it reports why). */
const FeedSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]),
    FOOTBALL_DATA_URL: z.url().default("https://api.football-data.org/v4"),
    FOOTBALL_DATA_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, "FOOTBALL_DATA_TOKEN must be the token as football-data.org issues it")
      .or(z.literal(""))
      .default(""),
  })
  .superRefine((env, ctx) => {
    // the token travels in a header: never over plain http (a local simulator is for development and tests)
    if (env.ENVIRONMENT === "production" && !env.FOOTBALL_DATA_URL.startsWith("https://")) {
      ctx.addIssue({ code: "custom", message: "production needs an https FOOTBALL_DATA_URL" });
    }
  });

/** What the game jobs need: nothing but the environment (the database is the binding). */
const CoreSchema = z.object({ ENVIRONMENT: z.enum(["development", "test", "production"]).default("production") });

export type SchedulerEnv = z.infer<typeof EnvSchema> & {
  FOOTBALL_DATA_URL: string;
  FOOTBALL_DATA_TOKEN: string;
  /** Why the feed cannot run (empty when it can): the feed job reports these; the other jobs run. */
  feedProblems: string[];
  HYPERDRIVE: Hyperdrive;
  PUSH_QUEUE: Queue<DeliveryMessage>;
  /** The live match-day objects, or null when not bound (then liveProblems says whether that is a problem). */
  LIVE: DurableObjectNamespace<LiveMatchDay> | null;
  /** Why the feed's changes cannot reach the live pages (empty when they can, or when not needed outside production). */
  liveProblems: string[];
  /**
   * Why pushes cannot be sent (empty when they can). Push configuration never stops the game jobs (registration
   * closing, match-day processing, the Scout sweep): the reminder job reports these as its error instead.
   */
  pushProblems: string[];
};

const checked = new WeakMap<object, SchedulerEnv>();

/**
 * The bindings checked once per bindings object. A bad ENVIRONMENT fails loudly at the first run; a bad or missing
 * push setting only turns pushes off (pushProblems), so the game jobs run whatever the push configuration is.
 */
export function readSchedulerEnv(bindings: SchedulerBindings): SchedulerEnv {
  const known = checked.get(bindings);
  if (known) return known;
  const core = CoreSchema.safeParse({ ENVIRONMENT: bindings.ENVIRONMENT || undefined });
  if (!core.success) {
    throw new Error(`scheduler configuration: ${core.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`).join("; ")}`);
  }
  const given = {
    ENVIRONMENT: core.data.ENVIRONMENT,
    PUSH_PROVIDER: bindings.PUSH_PROVIDER || undefined,
    APP_URL: bindings.APP_URL || undefined,
    VAPID_PUBLIC_KEY: bindings.VAPID_PUBLIC_KEY || undefined,
    VAPID_PRIVATE_KEY: bindings.VAPID_PRIVATE_KEY || undefined,
    VAPID_SUBJECT: bindings.VAPID_SUBJECT || undefined,
    FCM_SERVICE_ACCOUNT: bindings.FCM_SERVICE_ACCOUNT || undefined,
    FCM_API_URL: bindings.FCM_API_URL || undefined,
    PUSH_ENDPOINT_OVERRIDE: bindings.PUSH_ENDPOINT_OVERRIDE || undefined,
  };
  const parsed = EnvSchema.safeParse(given);
  // Names and rules only: a key's value is never part of a problem (they end up in logs and job results).
  const pushProblems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "push"}: ${i.message}`);
  // Unusable push settings: the defaults (which send nothing) keep the types whole for the game jobs.
  const data = parsed.success ? parsed.data : EnvSchema.parse({ ENVIRONMENT: "test", PUSH_PROVIDER: "outbox" });
  const feed = FeedSchema.safeParse({
    ENVIRONMENT: core.data.ENVIRONMENT,
    FOOTBALL_DATA_URL: bindings.FOOTBALL_DATA_URL || undefined,
    FOOTBALL_DATA_TOKEN: bindings.FOOTBALL_DATA_TOKEN || undefined,
  });
  const feedProblems = feed.success ? [] : feed.error.issues.map((i) => `${i.path.join(".") || "feed"}: ${i.message}`);
  const live = readLiveBinding(bindings.LIVE, core.data.ENVIRONMENT);
  const env: SchedulerEnv = {
    ...data,
    FOOTBALL_DATA_URL: feed.success ? feed.data.FOOTBALL_DATA_URL : "https://api.football-data.org/v4",
    FOOTBALL_DATA_TOKEN: feed.success ? feed.data.FOOTBALL_DATA_TOKEN : "",
    feedProblems,
    ENVIRONMENT: core.data.ENVIRONMENT,
    HYPERDRIVE: bindings.HYPERDRIVE,
    PUSH_QUEUE: bindings.PUSH_QUEUE,
    pushProblems,
    LIVE: live.namespace,
    liveProblems: live.problems,
  };
  checked.set(bindings, env);
  return env;
}

/**
 * The LIVE binding: a Durable Object namespace (what a `[[durable_objects.bindings]]` gives) or nothing. Missing is
 * a problem in production only: there the feed's live scores would reach open pages only on their next load.
 */
function readLiveBinding(
  value: unknown,
  environment: "development" | "test" | "production",
): { namespace: DurableObjectNamespace<LiveMatchDay> | null; problems: string[] } {
  if (value === undefined || value === null) {
    return {
      namespace: null,
      problems:
        environment === "production"
          ? ['LIVE: production needs the LiveMatchDay binding (durable_objects, script_name = "footycoach-web")']
          : [],
    };
  }
  const ns = value as Partial<DurableObjectNamespace>;
  if (typeof ns.idFromName !== "function" || typeof ns.get !== "function") {
    return { namespace: null, problems: ["LIVE: must be a Durable Object binding (LiveMatchDay)"] };
  }
  return { namespace: value as DurableObjectNamespace<LiveMatchDay>, problems: [] };
}

/** "push not configured: ..." when pushes cannot be sent, else null. */
export function pushNotConfigured(env: SchedulerEnv): string | null {
  return env.pushProblems.length ? `push not configured: ${env.pushProblems.join("; ")}` : null;
}

/** "feed not configured: ..." when the feed's settings are unusable, else null. */
export function feedNotConfigured(env: SchedulerEnv): string | null {
  return env.feedProblems.length ? `feed not configured: ${env.feedProblems.join("; ")}` : null;
}
