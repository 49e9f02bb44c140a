import { describe, expect, it } from "vitest";
import { formatKickoff, safeTimeZone, zoneAbbreviation } from "~/lib/date-format";
import { groupFixtures, type FixtureRow } from "~/models/fixture-rows.server";

const KICKOFF = "2025-08-16T14:00:00Z";

describe("formatKickoff", () => {
  it("shows a kickoff in the player's zone on the game pages", () => {
    expect(formatKickoff(KICKOFF, "Europe/London")).toBe("Sat 16 Aug, 15:00");
    expect(formatKickoff(new Date(KICKOFF), "America/Los_Angeles")).toBe("Sat 16 Aug, 07:00");
  });
  it("adds the year and the zone for the admin's results list", () => {
    expect(formatKickoff(KICKOFF, "Europe/London", { full: true })).toBe("Sat, 16 Aug 2025, 15:00 BST");
    expect(formatKickoff("2026-01-03T23:30:00Z", "Europe/London", { full: true })).toBe("Sat, 3 Jan 2026, 23:30 GMT");
  });
  it("falls back to UTC for an unknown or missing zone, and says TBA without a kickoff", () => {
    expect(formatKickoff(KICKOFF, "Not/AZone", { full: true })).toBe("Sat, 16 Aug 2025, 14:00 UTC");
    expect(formatKickoff(KICKOFF, null)).toBe("Sat 16 Aug, 14:00");
    expect(formatKickoff(null, "Europe/London")).toBe("TBA");
    expect(safeTimeZone("Not/AZone")).toBe("UTC");
    expect(safeTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
  });
});

describe("a kickoff whose time is not known yet (the feed's SCHEDULED: its date at 00:00 UTC)", () => {
  const placeholder = "2025-08-16T00:00:00Z";
  it("shows the feed's date with Time TBC, never the placeholder midnight, in every zone", () => {
    for (const zone of ["Europe/London", "America/Los_Angeles", "Asia/Tokyo", null]) {
      expect(formatKickoff(placeholder, zone, { confirmed: false })).toBe("Sat 16 Aug, Time TBC");
      expect(formatKickoff(placeholder, zone, { full: true, confirmed: false })).toBe("Sat, 16 Aug 2025, Time TBC");
    }
    // what the pages showed before: a midnight kickoff, on the day before west of UTC
    expect(formatKickoff(placeholder, "America/Los_Angeles")).toBe("Fri 15 Aug, 17:00");
  });
  it("groups the fixture lists under the feed's date with Time TBC beside the known times", () => {
    const row = (id: string, kickoffTime: string, kickoffConfirmed: boolean): FixtureRow => ({
      id,
      kickoffTime,
      kickoffConfirmed,
      homeTeam: `Home ${id}`,
      awayTeam: `Away ${id}`,
      homeScore: null,
      awayScore: null,
      status: "pending",
    });
    const groups = groupFixtures([row("1", placeholder, false), row("2", "2025-08-16T19:00:00Z", true)], "America/New_York");
    expect(groups.map((g) => [g.date, g.fixtures.map((f) => f.time)])).toEqual([["Saturday, 16 August 2025", ["Time TBC", "15:00 EDT"]]]);
  });
});

describe("zoneAbbreviation", () => {
  it("names the player's zone as players read it", () => {
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", "Europe/London")).toBe("GMT");
    expect(zoneAbbreviation("2026-07-10T15:00:00Z", "Europe/London")).toBe("BST");
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", "America/New_York")).toBe("EST");
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", "UTC")).toBe("UTC");
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", null)).toBe("UTC");
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", "Nowhere/Atlantis")).toBe("UTC");
    expect(zoneAbbreviation("2026-01-10T15:00:00Z", "Europe/Berlin")).toMatch(/^(CET|GMT\+1)$/);
  });
});
