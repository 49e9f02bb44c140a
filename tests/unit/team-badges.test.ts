import { describe, expect, it } from "vitest";
import { teamBadge, teamCode, textColourOn } from "~/lib/team-badges";

describe("teamBadge", () => {
  it("knows the Premier League clubs of the seed", () => {
    expect(teamBadge("Arsenal")).toEqual({ code: "ARS", primary: "#ef0107", secondary: "#ffffff" });
    expect(teamBadge("Brighton & Hove Albion").code).toBe("BHA");
    expect(teamBadge("Wolverhampton Wanderers").code).toBe("WOL");
  });
  it("gives any other team a deterministic colour and a code from its letters", () => {
    const a = teamBadge("Real Sociedad");
    expect(a).toEqual(teamBadge("Real Sociedad"));
    expect(a.code).toBe("RSO");
    expect(a.primary).toMatch(/^#[0-9a-f]{6}$/);
    expect(a.secondary).toMatch(/^#[0-9a-f]{6}$/);
    expect(teamBadge("Alpha").primary).not.toBe(teamBadge("Delta").primary);
  });
});

describe("teamCode", () => {
  it("takes initials of up to three words, else the first letters", () => {
    expect(teamCode("Alpha")).toBe("ALP");
    expect(teamCode("Borussia Monchengladbach")).toBe("BMO");
    expect(teamCode("Wolverhampton Wanderers Football Club")).toBe("WWF");
    expect(teamCode("FC X")).toBe("XXX");
    expect(teamCode("Ayr")).toBe("AYR");
    expect(teamCode("T2")).toBe("T2X");
    expect(teamCode("!!")).toBe("FCX");
  });
});

describe("textColourOn", () => {
  it("picks black on light colours and white on dark ones", () => {
    expect(textColourOn("#ffffff")).toBe("#000000");
    expect(textColourOn("#132257")).toBe("#ffffff");
    expect(textColourOn("#fdb913")).toBe("#000000");
  });
});
