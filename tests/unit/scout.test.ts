import { describe, expect, it } from "vitest";
import { entryLabel, lockBadgeText, matchDaysNewestFirst, parseScores, predictionBadge, progressPercent, scoutRankText } from "~/lib/scout";
import { ordinal } from "~/lib/ordinal";
import { redeemToast, saveToast } from "~/lib/outcome-messages";

const now = new Date("2026-11-22T12:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const MIN = 60_000;

describe("lockBadgeText", () => {
  it("says Predictions Locked when the server says so, whatever the time", () => {
    expect(lockBadgeText(later(5 * 60 * MIN), now, true)).toBe("Predictions Locked");
    expect(lockBadgeText(null, now, true)).toBe("Predictions Locked");
  });
  it("shows nothing without a deadline (no fixtures)", () => {
    expect(lockBadgeText(null, now, false)).toBeNull();
    expect(lockBadgeText("not a date", now, false)).toBeNull();
  });
  it("says TBA, with no countdown, while the fixtures all wait for their kickoff times", () => {
    expect(lockBadgeText(null, now, false, true)).toBe("Predictions Lock: TBA");
  });
  it("counts hours and minutes, minutes, then less than a minute", () => {
    expect(lockBadgeText(later((2 * 60 + 5) * MIN + 59_000), now, false)).toBe("Predictions Lock in 2h 5m");
    expect(lockBadgeText(later(50 * 60 * MIN), now, false)).toBe("Predictions Lock in 2d 2h");
    expect(lockBadgeText(later(60 * MIN), now, false)).toBe("Predictions Lock in 1h 0m");
    // the Scout lock uses the one countdown format (it read "234h 8m")
    expect(lockBadgeText(later((234 * 60 + 8) * MIN), now, false)).toBe("Predictions Lock in 9d 18h");
    expect(lockBadgeText(later(59 * MIN + 59_000), now, false)).toBe("Predictions Lock in 59m");
    expect(lockBadgeText(later(MIN), now, false)).toBe("Predictions Lock in 1m");
    expect(lockBadgeText(later(59_999), now, false)).toBe("Predictions Lock in Less than 1 minute");
    expect(lockBadgeText(later(1), now.getTime(), false)).toBe("Predictions Lock in Less than 1 minute");
  });
  it("reads days and hours from 48 hours on", () => {
    expect(lockBadgeText(later(48 * 60 * MIN), now, false)).toBe("Predictions Lock in 2d 0h");
    expect(lockBadgeText(later(50 * 60 * MIN), now, false)).toBe("Predictions Lock in 2d 2h");
    expect(lockBadgeText(later((234 * 60 + 8) * MIN), now, false)).toBe("Predictions Lock in 9d 18h");
  });
  it("reads Predictions Locked once the countdown has run out", () => {
    expect(lockBadgeText(now, now, false)).toBe("Predictions Locked");
    expect(lockBadgeText(later(-MIN).toISOString(), now, false)).toBe("Predictions Locked");
  });
});

describe("predictionBadge", () => {
  it("is Pending until the fixture is complete, whatever points are stored", () => {
    expect(predictionBadge("pending", 0)).toEqual({ label: "Pending", points: null, tone: "muted" });
  });
  it("says a postponed fixture's prediction is not counted", () => {
    expect(predictionBadge("postponed", 5)).toEqual({ label: "Postponed: not counted", points: null, tone: "muted" });
    expect(predictionBadge("postponed", null).label).toBe("Postponed: not counted");
  });
  it("maps the points of a complete fixture", () => {
    expect(predictionBadge("complete", 5)).toMatchObject({ label: "Exact!", points: 5 });
    expect(predictionBadge("complete", 3)).toMatchObject({ label: "Stacked", points: 3 });
    expect(predictionBadge("complete", 2)).toMatchObject({ label: "Goals", points: 2 });
    expect(predictionBadge("complete", 1)).toMatchObject({ label: "Result", points: 1 });
    expect(predictionBadge("complete", 0)).toMatchObject({ label: "Miss", points: 0 });
    expect(predictionBadge("complete", null)).toMatchObject({ label: "Miss", points: 0 });
  });
});

describe("entries, progress and match days", () => {
  it("numbers entries from 1", () => {
    expect(entryLabel(0)).toBe("Entry 1");
    expect(entryLabel(9)).toBe("Entry 10");
  });
  it("sizes progress bars relative to the top score", () => {
    expect(progressPercent(10, 10)).toBe(100);
    expect(progressPercent(5, 10)).toBe(50);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(0, 10)).toBe(0);
    expect(progressPercent(0, 0)).toBe(0);
  });
  it("lists match days newest first", () => {
    expect(matchDaysNewestFirst(3)).toEqual([3, 2, 1]);
    expect(matchDaysNewestFirst(1)).toEqual([1]);
    expect(matchDaysNewestFirst(0)).toEqual([1]);
  });
});

describe("messages", () => {
  it("words redeem outcomes as the spec does", () => {
    expect(redeemToast("created")).toEqual({ type: "success", message: "New entry created! Ticket redeemed." });
    expect(redeemToast("no_tickets").message).toBe("No tickets available to redeem");
    expect(redeemToast("max_entries").message).toBe("Maximum 10 entries per matchday");
    expect(redeemToast("locked").message).toBe("Failed to create new entry");
    expect(redeemToast("error").message).toBe("Failed to create new entry");
  });
  it("words save outcomes as the spec does", () => {
    expect(saveToast("saved")).toEqual({ type: "success", message: "Prediction saved!" });
    expect(saveToast("invalid_score").message).toBe("Please enter both scores");
    expect(saveToast("locked").message).toBe("Failed to save prediction");
    expect(saveToast("not_found").message).toBe("Failed to save prediction");
  });
});

describe("parseScores", () => {
  it("keeps full pairs and skips empty ones", () => {
    expect(
      parseScores([
        { fixtureId: "1", home: "2", away: "0" },
        { fixtureId: "2", home: "", away: " " },
        { fixtureId: "3", home: " 9", away: "0 " },
      ]),
    ).toEqual({
      ok: true,
      predictions: [
        { fixture_id: "1", home_goals: 2, away_goals: 0 },
        { fixture_id: "3", home_goals: 9, away_goals: 0 },
      ],
    });
  });
  it("asks for both scores when one side is missing or nothing is filled", () => {
    expect(parseScores([{ fixtureId: "1", home: "2", away: "" }])).toEqual({
      ok: false,
      message: "Please enter both scores",
      fixtureId: "1",
    });
    expect(parseScores([{ fixtureId: "1", home: "", away: "" }])).toMatchObject({ ok: false, message: "Please enter both scores" });
    expect(parseScores([])).toMatchObject({ ok: false, message: "Please enter both scores", fixtureId: null });
  });
  it("refuses anything but a whole number from 0 to 9", () => {
    for (const bad of ["10", "-1", "1.5", "a", "1e1", "²"]) {
      expect(parseScores([{ fixtureId: "4", home: bad, away: "1" }])).toMatchObject({ ok: false, fixtureId: "4" });
    }
  });
});

describe("scoutRankText", () => {
  it("shows no rank while nobody has scored, else the shared rank's ordinal", () => {
    expect(scoutRankText(1, 0, 0, ordinal)).toBe("-");
    expect(scoutRankText(71, 0, 0, ordinal)).toBe("-");
    expect(scoutRankText(1, 6, 1, ordinal)).toBe("1st");
    expect(scoutRankText(3, 6, 1, ordinal)).toBe("3rd");
  });
});
