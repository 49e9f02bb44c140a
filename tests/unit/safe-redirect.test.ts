import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/safe-redirect";

describe("safeRedirect", () => {
  it("keeps a path on this site with its query and hash", () => {
    for (const ok of ["/", "/dashboard", "/competitions?page=2&league=La%20Liga", "/competition/abc#players", "/a/b/../c"]) {
      expect(safeRedirect(ok, "/fallback")).toBe(ok);
    }
  });

  it("refuses what a browser would send to another origin", () => {
    const attacks = [
      "/\t/evil.example", // browsers strip tab and newline: becomes //evil.example
      "/\n/evil.example",
      "/\r/evil.example",
      "/%09/evil.example/phish".replace("%09", "\t"),
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      " /dashboard",
      "/ /evil",
      "/\u0000",
      "/\u007f",
      "/\u0085",
      "evil.example",
      "",
      "/" + "a".repeat(3000),
    ];
    for (const to of attacks) expect(safeRedirect(to, "/fallback"), JSON.stringify(to)).toBe("/fallback");
  });

  it("refuses anything that is not a string", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/x")).toBe("/x");
    expect(safeRedirect(new File(["/dashboard"], "f.txt"), "/x")).toBe("/x");
  });
});
