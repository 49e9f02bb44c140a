import { describe, expect, it } from "vitest";
import { isCrossSiteMutation } from "~/lib/origin";

const req = (method: string, headers: Record<string, string>) => new Request("https://footycoach.app/login", { method, headers });

describe("isCrossSiteMutation", () => {
  it("refuses a POST from another origin", () => {
    expect(isCrossSiteMutation(req("POST", { Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteMutation(req("POST", { Origin: "null" }))).toBe(true);
  });
  it("accepts a POST from the same origin", () => {
    expect(isCrossSiteMutation(req("POST", { Origin: "https://footycoach.app" }))).toBe(false);
  });
  it("uses Sec-Fetch-Site when Origin is absent", () => {
    expect(isCrossSiteMutation(req("POST", { "Sec-Fetch-Site": "cross-site" }))).toBe(true);
    expect(isCrossSiteMutation(req("POST", { "Sec-Fetch-Site": "same-origin" }))).toBe(false);
  });
  it("never blocks reads", () => {
    expect(isCrossSiteMutation(req("GET", { Origin: "https://evil.example" }))).toBe(false);
  });
});
