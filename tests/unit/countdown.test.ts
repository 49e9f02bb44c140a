import { describe, expect, it } from "vitest";
import { countdownAnnouncement, formatCountdown, formatDuration, isUrgent } from "~/lib/countdown";

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
  it("shows the two largest units: 2d 18h, 5h 12m, 45m", () => {
    expect(formatCountdown(later(((2 * 24 + 18) * 60 + 39) * MIN), now)).toBe("2d 18h");
    expect(formatCountdown(later(((24 + 2) * 60 + 3) * MIN), now)).toBe("1d 2h");
    expect(formatCountdown(later((5 * 60 + 12) * MIN + 59_000), now)).toBe("5h 12m");
    expect(formatCountdown(later(3 * 24 * 60 * MIN), now)).toBe("3d 0h");
    expect(formatCountdown(later(45 * MIN), now.getTime())).toBe("45m");
  });
  it("reads 66h 20m as days and hours", () => {
    expect(formatCountdown(later((66 * 60 + 20) * MIN), now)).toBe("2d 18h");
  });
  it("shows 0m under a minute", () => {
    expect(formatCountdown(later(59_000), now)).toBe("0m");
    expect(formatDuration(-5)).toBe("0m");
  });
});

describe("isUrgent", () => {
  it("is true only under three hours before a known deadline", () => {
    expect(isUrgent(later(45 * MIN), now)).toBe(true);
    expect(isUrgent(later(3 * 60 * MIN - 1), now)).toBe(true);
    expect(isUrgent(later(3 * 60 * MIN), now)).toBe(false);
    expect(isUrgent(later(-1), now)).toBe(false);
    expect(isUrgent(null, now)).toBe(false);
  });
});

describe("countdownAnnouncement", () => {
  it("changes only with the state, never with the minutes", () => {
    expect(countdownAnnouncement(later(10 * 60 * MIN), now, "Team selection")).toBe("");
    expect(countdownAnnouncement(later(2 * 60 * MIN), now, "Team selection")).toBe("Team selection closes in less than 3 hours.");
    expect(countdownAnnouncement(later(5 * MIN), now, "Team selection")).toBe("Team selection closes in less than 3 hours.");
    expect(countdownAnnouncement(later(-1), now, "Team selection")).toBe("Team selection has closed.");
    expect(countdownAnnouncement(null, now, "Team selection")).toBe("");
  });
});
