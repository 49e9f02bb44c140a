/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * A Worker deployed with a bad configuration fails loudly where the post-deploy check looks: /functions/v1/health
 * answers 503 JSON listing the problems (names, never values), every page a 503 page (never a 500).
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/web/index";

type Bindings = Parameters<typeof worker.fetch>[1];
const bad = {
  ...(env as unknown as Bindings),
  ENVIRONMENT: "production",
  MAIL_PROVIDER: "resend",
  MAIL_API_KEY: "",
  SESSION_SECRET: "short-secret-value",
};

async function get(path: string) {
  return worker.fetch(new Request(`https://footycoach.test${path}`), { ...bad }, createExecutionContext());
}

describe("a misconfigured web Worker", () => {
  it("reports the problems on /functions/v1/health with 503, without secret values", async () => {
    const res = await get("/functions/v1/health");
    expect(res.status).toBe(503);
    const body = await res.json<{ ok: boolean; config: string; problems: string[] }>();
    expect(body).toMatchObject({ ok: false, config: "invalid" });
    expect(body.problems).toContain("MAIL_API_KEY: MAIL_API_KEY is required with MAIL_PROVIDER=resend");
    expect(body.problems.join(" ")).toMatch(/SESSION_SECRET/);
    expect(JSON.stringify(body)).not.toContain("short-secret-value");
  });

  it("answers pages with a 503 page, not a 500", async () => {
    for (const path of ["/login", "/forgot-password", "/dashboard"]) {
      const res = await get(path);
      expect(res.status, path).toBe(503);
      expect(await res.text()).toContain("FootyCoach is unavailable");
    }
  });
});
