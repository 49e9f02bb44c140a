import { z } from "zod";
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
  /** Development and test only: send every Web Push request to this origin (a local push service). */
  PUSH_ENDPOINT_OVERRIDE?: string;
  /** The data feed's API base (football-data.org v4; a local simulator in development and tests). */
  FOOTBALL_DATA_URL?: string;
  /** The feed's API token (X-Auth-Token; a secret). Without it a linked league records "not set" as its error. */
  FOOTBALL_DATA_TOKEN?: string;
}

const base64url = (bytes: number) => z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`));

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
    FOOTBALL_DATA_URL: z.url().default("https://api.football-data.org/v4"),
    FOOTBALL_DATA_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, "FOOTBALL_DATA_TOKEN must be the token as football-data.org issues it")
      .or(z.literal(""))
      .default(""),
  })
  .superRefine((env, ctx) => {
    if (env.ENVIRONMENT !== "production") return;
    // A redirected push or a kept-back outbox in production would silently drop every reminder.
    if (env.PUSH_ENDPOINT_OVERRIDE) ctx.addIssue({ code: "custom", message: "PUSH_ENDPOINT_OVERRIDE cannot be set in production" });
    if (env.PUSH_PROVIDER === "outbox") ctx.addIssue({ code: "custom", message: "production needs PUSH_PROVIDER=live" });
    // the token travels in a header: never over plain http (a local simulator is for development and tests)
    if (!env.FOOTBALL_DATA_URL.startsWith("https://")) {
      ctx.addIssue({ code: "custom", message: "production needs an https FOOTBALL_DATA_URL" });
    }
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
      ctx.addIssue({ code: "custom", message: "production needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY" });
    }
  });

export type SchedulerEnv = z.infer<typeof EnvSchema> & { HYPERDRIVE: Hyperdrive; PUSH_QUEUE: Queue<DeliveryMessage> };

const checked = new WeakMap<object, SchedulerEnv>();

/** The bindings checked once per bindings object; a bad configuration fails loudly at the first run. */
export function readSchedulerEnv(bindings: SchedulerBindings): SchedulerEnv {
  const known = checked.get(bindings);
  if (known) return known;
  const parsed = EnvSchema.safeParse({
    ENVIRONMENT: bindings.ENVIRONMENT || undefined,
    PUSH_PROVIDER: bindings.PUSH_PROVIDER || undefined,
    APP_URL: bindings.APP_URL || undefined,
    VAPID_PUBLIC_KEY: bindings.VAPID_PUBLIC_KEY || undefined,
    VAPID_PRIVATE_KEY: bindings.VAPID_PRIVATE_KEY || undefined,
    VAPID_SUBJECT: bindings.VAPID_SUBJECT || undefined,
    FCM_SERVICE_ACCOUNT: bindings.FCM_SERVICE_ACCOUNT || undefined,
    FCM_API_URL: bindings.FCM_API_URL || undefined,
    PUSH_ENDPOINT_OVERRIDE: bindings.PUSH_ENDPOINT_OVERRIDE || undefined,
    FOOTBALL_DATA_URL: bindings.FOOTBALL_DATA_URL || undefined,
    FOOTBALL_DATA_TOKEN: bindings.FOOTBALL_DATA_TOKEN || undefined,
  });
  if (!parsed.success) {
    throw new Error(`scheduler configuration: ${parsed.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`).join("; ")}`);
  }
  const env = { ...parsed.data, HYPERDRIVE: bindings.HYPERDRIVE, PUSH_QUEUE: bindings.PUSH_QUEUE };
  checked.set(bindings, env);
  return env;
}
