/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { SELF } from "cloudflare:test";
import { createCookie } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";

const BASE = "http://footycoach.test";

describe("the web Worker in workerd", () => {
  it("serves /login with 200 and the login form", async () => {
    const res = await SELF.fetch(`${BASE}/login`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Log in to FootyCoach");
    expect(html).toContain('name="password"');
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("redirects /dashboard to /login when signed out", async () => {
    const res = await SELF.fetch(`${BASE}/dashboard`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
  });

  it("sends / to /login without a session", async () => {
    const res = await SELF.fetch(`${BASE}/`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
  });

  it("refuses a cross-site POST with 403", async () => {
    const res = await SELF.fetch(`${BASE}/login`, {
      method: "POST",
      headers: { Host: "footycoach.test", Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.co&password=secret1",
    });
    expect(res.status).toBe(403);
  });

  it("answers bad login input with 400 and the message, without touching the database", async () => {
    const res = await SELF.fetch(`${BASE}/login`, {
      method: "POST",
      headers: { Host: "footycoach.test", Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=&password=",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Email is required.");
  });

  it("renders a friendly 404 page", async () => {
    const res = await SELF.fetch(`${BASE}/no/such/page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/not found/i);
  });

  it("answers 503 'temporarily unavailable' when the database is down, with no stack trace", async () => {
    // A well-signed session cookie makes the Worker look the session up in the (unreachable) database.
    const cookie = createCookie("fc_session", { secrets: ["workers-test-secret-0123456789abcdef0123"] });
    const header = await cookie.serialize(`7b1f3c2e-9f7a-4c55-8d0e-2f4b8a6c1d3e:${"x".repeat(43)}`);
    const res = await SELF.fetch(`${BASE}/dashboard`, { headers: { Cookie: header.split(";")[0] } });
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain("temporarily unavailable");
    expect(html).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
  });
});
