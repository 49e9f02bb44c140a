import Papa from "papaparse";
import { z } from "zod";

/*
 * Fixtures CSV (spec part 2 §5, game rules "Admin"): parsing and per-row validation, shared by the upload
 * preview in the browser and the admin action on the server (which re-parses and re-validates the file and
 * never trusts the preview). Pure module: no DOM, no server imports.
 */

export const CSV_MAX_BYTES = 1024 * 1024;
export const CSV_MAX_ROWS = 5000;
export const CSV_TOO_LARGE = "The file is larger than 1 MB.";
export const CSV_TOO_MANY_ROWS = "The file has more than 5,000 rows.";

export const REQUIRED_COLUMNS = ["league", "season", "match_day", "home_team", "away_team", "kickoff_time", "status"] as const;
// reason: why a row corrects a complete result (the database requires one then: "A reason is required to
// correct a result.")
const OPTIONAL_COLUMNS = ["id", "home_score", "away_score", "result", "reason"] as const;
const REASON_MAX = 500;
const FIXTURE_STATUSES = ["pending", "complete", "postponed"] as const;
const SCORE_MAX = 30;
const MATCH_DAY_MAX = 60;

/**
 * Team names: letters (Latin, with accents), digits, spaces and . ' & -, starting with a letter or digit, so no
 * cell can start a spreadsheet formula. The database enforces the same rule (private.is_team_name); this copy
 * only lets the upload preview flag a row before it is sent.
 */
const TEAM_NAME = /^[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F .'&-]*$/;
export const TEAM_NAME_MESSAGE = "Team names may contain only letters, digits, spaces and . ' & - (starting with a letter or digit).";

/**
 * One cell of a CSV the app exports. A text cell starting with = + - @ tab or CR would run as a formula when the
 * file is opened in a spreadsheet: it is prefixed with an apostrophe (OWASP's advice), and quoted when needed. A
 * number is written as it is (a goal difference of -3 stays a number; digits cannot run as a formula).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  let text = value == null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text (header first), every cell through csvCell. */
function toCsv(rows: (string | number | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\n") + "\n";
}

/** The downloadable template (served by /admin/fixtures-template.csv). */
export const CSV_TEMPLATE = toCsv([
  ["id", "league", "season", "match_day", "home_team", "away_team", "kickoff_time", "status", "home_score", "away_score"],
  ["", "Premier League", "2025/26", 1, "Arsenal", "Chelsea", "2025-08-16T14:00:00Z", "pending", "", ""],
  ["", "Premier League", "2025/26", 1, "Liverpool", "Everton", "2025-08-16T16:30:00Z", "complete", 2, 1],
]);

/** One validated row, in the shape public.upsert_fixtures(p_rows jsonb) takes. */
export interface FixtureCsvRow {
  line: number;
  id?: number;
  league: string;
  season: string;
  match_day: number;
  home_team: string;
  away_team: string;
  kickoff_time: string;
  status: (typeof FIXTURE_STATUSES)[number];
  home_score?: number;
  away_score?: number;
  reason?: string;
}

export interface CsvRowError {
  line: number;
  reason: string;
}

/** What the preview table shows for each data row. */
interface CsvPreviewRow {
  line: number;
  values: Record<string, string>;
  error: string | null;
}

export type CsvParseResult =
  { ok: false; message: string } | { ok: true; rows: FixtureCsvRow[]; errors: CsvRowError[]; preview: CsvPreviewRow[]; total: number };

const text = (label: string, max: number) =>
  z.string().trim().min(1, `${label} is required.`).max(max, `${label} must be at most ${max} characters.`);

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${label} must be a whole number from ${min} to ${max}.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${label} must be a whole number from ${min} to ${max}.`);

const optionalScore = (label: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(wholeNumber(label, 0, SCORE_MAX).optional());

// ISO 8601 date and time; a missing offset means UTC.
const KICKOFF = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const KICKOFF_MESSAGE = "kickoff_time must be a date and time such as 2025-08-16T14:00:00Z.";

export function parseKickoff(value: string): string | null {
  const m = KICKOFF.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", zone] = m;
  let offset = "Z";
  if (zone && zone.toUpperCase() !== "Z") {
    const digits = zone.replace(":", "");
    offset = `${digits.slice(0, 3)}:${digits.length > 3 ? digits.slice(3, 5) : "00"}`;
  }
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // Reject impossible calendar dates (Date rolls 2025-02-30 over to March).
  const check = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date.toISOString();
}

const cell = z.preprocess((v) => (typeof v === "string" || typeof v === "number" ? String(v) : ""), z.string());

const FixtureRowSchema = z
  .object({
    id: cell.pipe(
      z
        .string()
        .trim()
        .transform((v) => (v === "" ? undefined : v))
        .pipe(
          z
            .string()
            .regex(/^\d{1,15}$/, "id must be a positive whole number.")
            .transform(Number)
            .refine((n) => n >= 1, "id must be a positive whole number.")
            .optional(),
        ),
    ),
    league: cell.pipe(text("league", 60)),
    season: cell.pipe(text("season", 20)),
    match_day: cell.pipe(wholeNumber("match_day", 1, MATCH_DAY_MAX)),
    home_team: cell.pipe(text("home_team", 60).regex(TEAM_NAME, TEAM_NAME_MESSAGE)),
    away_team: cell.pipe(text("away_team", 60).regex(TEAM_NAME, TEAM_NAME_MESSAGE)),
    kickoff_time: cell.pipe(
      z
        .string()
        .trim()
        .min(1, "kickoff_time is required.")
        .transform((v, ctx) => {
          const iso = parseKickoff(v);
          if (!iso) {
            ctx.addIssue({ code: "custom", message: KICKOFF_MESSAGE });
            return z.NEVER;
          }
          return iso;
        }),
    ),
    status: cell.pipe(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((v) => (v === "" ? "pending" : v))
        .pipe(z.enum(FIXTURE_STATUSES, { error: "status must be pending, complete or postponed." })),
    ),
    home_score: cell.pipe(optionalScore("home_score")),
    away_score: cell.pipe(optionalScore("away_score")),
    reason: cell.pipe(z.string().trim().max(REASON_MAX, `reason must be at most ${REASON_MAX} characters.`)),
  })
  .superRefine((row, ctx) => {
    if (row.home_team.toLowerCase() === row.away_team.toLowerCase()) {
      ctx.addIssue({ code: "custom", path: ["away_team"], message: "home_team and away_team must be different teams." });
    }
    const scores = [row.home_score, row.away_score].filter((s) => s !== undefined).length;
    if (scores === 1) {
      ctx.addIssue({ code: "custom", path: ["home_score"], message: "Enter both home_score and away_score, or neither." });
    } else if (row.status === "complete" && scores === 0) {
      ctx.addIssue({ code: "custom", path: ["home_score"], message: "A complete fixture needs home_score and away_score." });
    } else if (row.status !== "complete" && scores === 2) {
      ctx.addIssue({ code: "custom", path: ["status"], message: "Scores are allowed only when status is complete." });
    }
  });

/** Validates one data row (header keys already normalised). `line` is its line in the file (header = 1). */
function validateRow(values: Record<string, unknown>, line: number): { row: FixtureCsvRow } | { error: CsvRowError } {
  const parsed = FixtureRowSchema.safeParse(values);
  if (!parsed.success) return { error: { line, reason: parsed.error.issues[0]?.message ?? "Invalid row." } };
  const v = parsed.data;
  const row: FixtureCsvRow = {
    line,
    league: v.league,
    season: v.season,
    match_day: v.match_day,
    home_team: v.home_team,
    away_team: v.away_team,
    kickoff_time: v.kickoff_time,
    status: v.status,
  };
  if (v.id !== undefined) row.id = v.id;
  if (v.home_score !== undefined && v.away_score !== undefined) {
    row.home_score = v.home_score;
    row.away_score = v.away_score;
  }
  if (v.reason) row.reason = v.reason;
  return { row };
}

const normaliseHeader = (h: string) =>
  h
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_");

/** UTF-8 size of a text (the limit is on the file, in bytes). */
function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

/**
 * Parses and validates a fixtures CSV. A file that cannot be read as CSV (or lacks a required column) gives
 * `{ ok: false, message: "CSV parse error: ..." }`; past the limits the limit message; otherwise each data row
 * is either a valid row or an error with its line number.
 */
export function parseFixturesCsv(content: string): CsvParseResult {
  if (byteLength(content) > CSV_MAX_BYTES) return { ok: false, message: CSV_TOO_LARGE };
  const source = content.replace(/^\uFEFF/, "");
  if (source.trim() === "") return { ok: false, message: "CSV parse error: the file is empty." };

  const parsed = Papa.parse<Record<string, string>>(source, {
    header: true,
    skipEmptyLines: false,
    transformHeader: normaliseHeader,
  });
  const fatal = parsed.errors.find((e) => e.type === "Quotes");
  if (fatal) return { ok: false, message: `CSV parse error: ${fatal.message} (line ${(fatal.row ?? 0) + 2}).` };

  const fields = parsed.meta.fields ?? [];
  const missing = REQUIRED_COLUMNS.filter((c) => !fields.includes(c));
  if (missing.length > 0) return { ok: false, message: `CSV parse error: missing required columns: ${missing.join(", ")}.` };

  const mismatched = new Map<number, string>();
  for (const e of parsed.errors) {
    if (e.type === "FieldMismatch" && typeof e.row === "number") mismatched.set(e.row, e.message);
  }

  const rows: FixtureCsvRow[] = [];
  const errors: CsvRowError[] = [];
  const preview: CsvPreviewRow[] = [];
  let total = 0;
  for (let i = 0; i < parsed.data.length; i++) {
    const values = parsed.data[i];
    const line = i + 2;
    const filled = Object.entries(values).some(([k, v]) => k !== "__parsed_extra" && typeof v === "string" && v.trim() !== "");
    if (!filled) continue; // blank lines do not count
    total++;
    if (total > CSV_MAX_ROWS) return { ok: false, message: CSV_TOO_MANY_ROWS };
    const shown: Record<string, string> = {};
    for (const c of [...OPTIONAL_COLUMNS.slice(0, 1), ...REQUIRED_COLUMNS, "home_score", "away_score"]) shown[c] = values[c] ?? "";
    let error: string | null = null;
    if (mismatched.has(i)) {
      error = `Wrong number of fields: ${mismatched.get(i)}`;
      errors.push({ line, reason: error });
    } else {
      const result = validateRow(values, line);
      if ("row" in result) rows.push(result.row);
      else {
        error = result.error.reason;
        errors.push(result.error);
      }
    }
    preview.push({ line, values: shown, error });
  }
  if (total === 0) return { ok: false, message: "CSV parse error: the file has no data rows." };
  return { ok: true, rows, errors, preview, total };
}

/** 'Upload complete: N succeeded, M failed.' */
export function uploadSummary(succeeded: number, failed: number): string {
  return `Upload complete: ${succeeded} succeeded, ${failed} failed.`;
}
