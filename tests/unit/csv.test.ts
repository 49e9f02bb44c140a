import { describe, expect, it } from "vitest";
import {
  CSV_MAX_ROWS,
  CSV_TEMPLATE,
  csvCell,
  TEAM_NAME_MESSAGE,
  CSV_TOO_LARGE,
  CSV_TOO_MANY_ROWS,
  parseFixturesCsv,
  parseKickoff,
  uploadSummary,
  type CsvParseResult,
} from "~/lib/csv";

const HEADER = "league,season,match_day,home_team,away_team,kickoff_time,status";

function ok(result: CsvParseResult) {
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result;
}

describe("parseFixturesCsv", () => {
  it("passes a correction's reason on to the database (which requires one to correct a complete result)", () => {
    const r = ok(
      parseFixturesCsv(
        `${HEADER},home_score,away_score,reason\nPremier League,2025/26,1,Arsenal,Chelsea,2025-08-16T14:00:00Z,complete,1,1,  Wrong score typed \n` +
          `Premier League,2025/26,1,Fulham,Everton,2025-08-16T14:00:00Z,complete,2,0,${"x".repeat(501)}\n`,
      ),
    );
    expect(r.rows.map((row) => row.reason)).toEqual(["Wrong score typed"]);
    expect(r.errors).toEqual([{ line: 3, reason: "reason must be at most 500 characters." }]);
  });

  it("parses the template", () => {
    const r = ok(parseFixturesCsv(CSV_TEMPLATE));
    expect(r.errors).toEqual([]);
    expect(r.rows).toHaveLength(2);
    expect(r.rows[1]).toEqual({
      line: 3,
      league: "Premier League",
      season: "2025/26",
      match_day: 1,
      home_team: "Liverpool",
      away_team: "Everton",
      kickoff_time: "2025-08-16T16:30:00.000Z",
      status: "complete",
      home_score: 2,
      away_score: 1,
    });
  });

  it("defaults status to pending and omits empty scores, result and id", () => {
    const csv = `id,${HEADER},home_score,away_score,result\n,Serie A,2025/26,3,Roma,Lazio,2025-09-01 18:45,,,,\n`;
    const r = ok(parseFixturesCsv(csv));
    expect(r.errors).toEqual([]);
    expect(r.rows[0]).toEqual({
      line: 2,
      league: "Serie A",
      season: "2025/26",
      match_day: 3,
      home_team: "Roma",
      away_team: "Lazio",
      kickoff_time: "2025-09-01T18:45:00.000Z",
      status: "pending",
    });
    expect("home_score" in r.rows[0]).toBe(false);
    expect("id" in r.rows[0]).toBe(false);
  });

  it("keeps an id, trims cells, accepts a BOM, other header case and offsets", () => {
    const csv = `\uFEFFID,League,Season,Match_Day,Home_Team,Away_Team,Kickoff_Time,Status\n 42 , La Liga ,2025, 7 ,Betis,Sevilla,2025-10-04T20:00:00+02:00,POSTPONED\n`;
    const r = ok(parseFixturesCsv(csv));
    expect(r.errors).toEqual([]);
    expect(r.rows[0]).toMatchObject({
      id: 42,
      league: "La Liga",
      match_day: 7,
      kickoff_time: "2025-10-04T18:00:00.000Z",
      status: "postponed",
    });
  });

  it("reports each bad row with its line and reason; good rows still pass", () => {
    const csv = [
      `${HEADER},home_score,away_score`,
      "Premier League,2025/26,1,Arsenal,Chelsea,2025-08-16T14:00:00Z,pending,,", // 2 ok
      "Premier League,2025/26,0,Arsenal,Chelsea,2025-08-16T14:00:00Z,pending,,", // 3 match day
      "Premier League,2025/26,1,Arsenal,Arsenal,2025-08-16T14:00:00Z,pending,,", // 4 same team
      "Premier League,2025/26,1,Leeds,Fulham,not a date,pending,,", // 5 kickoff
      "Premier League,2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,finished,,", // 6 status
      "Premier League,2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,complete,31,0", // 7 score range
      "Premier League,2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,complete,2,", // 8 one score
      "Premier League,2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,complete,,", // 9 complete w/o scores
      "Premier League,2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,pending,1,1", // 10 scores on pending
      ",2025/26,1,Leeds,Fulham,2025-08-16T14:00:00Z,pending,,", // 11 league missing
      "Premier League,2025/26,1,Leeds", // 12 too few fields
      "", // blank line: skipped
      "Premier League,2025/26,2,Spurs,Wolves,2025-02-30T14:00:00Z,pending,,", // 14 impossible date
    ].join("\n");
    const r = ok(parseFixturesCsv(csv));
    expect(r.rows.map((x) => x.line)).toEqual([2]);
    expect(r.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
    const reason = (line: number) => r.errors.find((e) => e.line === line)?.reason;
    expect(reason(3)).toBe("match_day must be a whole number from 1 to 60.");
    expect(reason(4)).toBe("home_team and away_team must be different teams.");
    expect(reason(5)).toMatch(/^kickoff_time must be a date and time/);
    expect(reason(6)).toBe("status must be pending, complete or postponed.");
    expect(reason(7)).toBe("home_score must be a whole number from 0 to 30.");
    expect(reason(8)).toBe("Enter both home_score and away_score, or neither.");
    expect(reason(9)).toBe("A complete fixture needs home_score and away_score.");
    expect(reason(10)).toBe("Scores are allowed only when status is complete.");
    expect(reason(11)).toBe("league is required.");
    expect(reason(12)).toMatch(/^Wrong number of fields/);
    expect(reason(14)).toMatch(/^kickoff_time/);
    expect(r.total).toBe(12);
    expect(r.preview).toHaveLength(12);
    expect(r.preview[0]).toMatchObject({ line: 2, error: null });
    expect(r.preview[1].error).toBe(reason(3));
  });

  it("refuses a file without the required columns or with broken quoting", () => {
    expect(parseFixturesCsv("league,season\nPremier League,2025/26\n")).toEqual({
      ok: false,
      message: "CSV parse error: missing required columns: match_day, home_team, away_team, kickoff_time, status.",
    });
    const broken = parseFixturesCsv(`${HEADER}\n"Premier League,2025/26,1,A,B,2025-08-16T14:00:00Z,pending\n`);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.message).toMatch(/^CSV parse error: /);
    expect(parseFixturesCsv("")).toEqual({ ok: false, message: "CSV parse error: the file is empty." });
    expect(parseFixturesCsv(`${HEADER}\n\n`)).toEqual({ ok: false, message: "CSV parse error: the file has no data rows." });
  });

  it("enforces the 1 MB and 5,000 row limits", () => {
    const row = "Premier League,2025/26,1,Arsenal,Chelsea,2025-08-16T14:00:00Z,pending\n";
    const atLimit = HEADER + "\n" + row.repeat(CSV_MAX_ROWS);
    expect(ok(parseFixturesCsv(atLimit)).total).toBe(CSV_MAX_ROWS);
    expect(parseFixturesCsv(atLimit + row)).toEqual({ ok: false, message: CSV_TOO_MANY_ROWS });
    expect(CSV_TOO_MANY_ROWS).toBe("The file has more than 5,000 rows.");
    const big = HEADER + "\n" + "x".repeat(1024 * 1024);
    expect(parseFixturesCsv(big)).toEqual({ ok: false, message: CSV_TOO_LARGE });
    expect(CSV_TOO_LARGE).toBe("The file is larger than 1 MB.");
  });
});

describe("parseKickoff", () => {
  it.each([
    ["2025-08-16T14:00:00Z", "2025-08-16T14:00:00.000Z"],
    ["2025-08-16 14:00", "2025-08-16T14:00:00.000Z"],
    ["2025-08-16T14:00:00.500+0100", "2025-08-16T13:00:00.000Z"],
    ["2025-08-16T14:00-05", "2025-08-16T19:00:00.000Z"],
  ])("%s -> %s", (input, expected) => {
    expect(parseKickoff(input)).toBe(expected);
  });
  it.each(["16/08/2025 14:00", "2025-13-01T10:00Z", "2025-08-16T25:00Z", "2025-08-16"])("rejects %s", (input) => {
    expect(parseKickoff(input)).toBeNull();
  });
});

it("uploadSummary uses the spec wording", () => {
  expect(uploadSummary(3, 1)).toBe("Upload complete: 3 succeeded, 1 failed.");
});

describe("formula injection", () => {
  it("refuses team names that a spreadsheet would run, per row with the reason", () => {
    const header = "league,season,match_day,home_team,away_team,kickoff_time,status";
    const names = ['=HYPERLINK("http://evil.example","x")', "+SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)"];
    const body = names.map((n) => `Premier League,2025/26,1,"${n.replace(/"/g, '""')}",Chelsea,2025-08-16T14:00:00Z,pending`);
    const r = ok(
      parseFixturesCsv(
        [header, ...body, "Premier League,2025/26,1,Brighton & Hove Albion,Nott'm Forest,2025-08-16T14:00:00Z,pending"].join("\n"),
      ),
    );
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4, 5]);
    for (const e of r.errors) expect(e.reason).toBe(TEAM_NAME_MESSAGE);
    expect(r.rows.map((row) => row.home_team)).toEqual(["Brighton & Hove Albion"]);
  });

  it("neutralises exported cells that start with = + - @ tab or CR", () => {
    expect(csvCell("=SUM(1+1)")).toBe("'=SUM(1+1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("Arsenal")).toBe("Arsenal");
    expect(csvCell(2)).toBe("2");
    // a number is a number: a negative goal difference is not text
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    for (const line of CSV_TEMPLATE.trim().split("\n")) for (const c of line.split(",")) expect(c).not.toMatch(/^[=+\-@\t\r]/);
  });
});
