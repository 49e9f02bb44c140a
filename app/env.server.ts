import { z } from "zod";

/** The Worker's bindings, as wrangler.toml, .dev.vars and `wrangler secret` provide them. */
export interface Bindings {
  HYPERDRIVE: Hyperdrive;
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
}

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
  })
  .superRefine((env, ctx) => {
    // A movable clock is a test tool; production must never honour it.
    if (env.ENVIRONMENT === "production" && env.TEST_CLOCK === "enabled") {
      ctx.addIssue({ code: "custom", message: "TEST_CLOCK cannot be enabled in production" });
    }
    if (env.ENVIRONMENT === "production" && env.MAIL_PROVIDER === "outbox") {
      ctx.addIssue({ code: "custom", message: "production needs a real MAIL_PROVIDER" });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

const cache = new WeakMap<object, Env>();

/** Validates the bindings once per isolate (bindings objects are stable per isolate). */
export function readEnv(bindings: Bindings): Env {
  const hit = cache.get(bindings);
  if (hit) return hit;
  const parsed = EnvSchema.safeParse({
    ...bindings,
    DATABASE_URL: bindings.HYPERDRIVE?.connectionString,
  });
  if (!parsed.success) {
    throw new Error(`Invalid Worker configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  cache.set(bindings, parsed.data);
  return parsed.data;
}
