import { describe, expect, it } from "vitest";
import { formatCountdown } from "~/lib/countdown";

const now = new Date("2026-11-22T12:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const MIN = 60_000;

describe("formatCountdown", () => {
  it("says TBA when no deadline is known", () => {
    expect(formatCountdown(null, now)).toBe("TBA");
    expect(formatCountdown(undefined, now)).toBe("TBA");
    expect(formatCountdown("not a date", now)).toBe("TBA");
  });
  it("says Closed once the deadline has passed", () => {
    expect(formatCountdown(now, now)).toBe("Closed");
    expect(formatCountdown(later(-1), now)).toBe("Closed");
  });
  it("shows days, hours and minutes", () => {
    expect(formatCountdown(later(((24 + 2) * 60 + 3) * MIN), now)).toBe("1d:2h:3m");
    expect(formatCountdown(later((2 * 60 + 5) * MIN + 59_000), now)).toBe("2h:5m");
    expect(formatCountdown(later(3 * 24 * 60 * MIN), now)).toBe("3d:0h:0m");
  });
  it("shows 0m under a minute", () => {
    expect(formatCountdown(later(59_000), now)).toBe("0m");
  });
});
