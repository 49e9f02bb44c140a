import postgres from "postgres";
import { z } from "zod";
import type { Db } from "~/db/types";
import { ACCESS_DENIED } from "~/admin.server";
import {
  ADMIN_CREATE_TYPE_VALUES,
  CREATE_LEAGUES,
  CREATE_SEASONS,
  HTTPS_URL,
  PRIZE_DESCRIPTION_MAX,
  PRIZE_TITLE_MAX,
  PRIZE_URL_MAX,
} from "~/lib/competition-options";
import { rulesToSql, type CompetitionRules } from "~/lib/competition-rules";
import { startDateField } from "~/lib/validation";

/*
 * Admin competition creation (spec part 2 §5). The form is validated here; public.admin_create_competition
 * decides again (role, required fields, dates, match day, unique name and type) and raises the spec's messages.
 */

const REQUIRED = "Please fill in all required fields.";
const MATCH_DAY = "Start Match Day must be a positive whole number.";
const CREATE_FAILED = "Failed to create competition";
export const CREATED = "Competition created successfully!";
const SCOUT_ONLY = "Prize details are for Scout competitions only.";

/** An optional prize text: trimmed, blank = none. */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v || null);

/** An optional prize address: https:// only (as private.is_https_url), blank = none. */
const optionalHttps = (message: string) =>
  z
    .string()
    .trim()
    .max(PRIZE_URL_MAX, message)
    .refine((v) => v === "" || HTTPS_URL.test(v), message)
    .optional()
    .transform((v) => v || null);

export function adminCompetitionSchema(today: string) {
  const required = z.string({ error: REQUIRED }).trim().min(1, REQUIRED);
  return z
    .object({
      name: required.max(100, "Competition name must be at most 100 characters."),
      type: z.enum(ADMIN_CREATE_TYPE_VALUES, { error: REQUIRED }),
      league: z.enum(CREATE_LEAGUES, { error: REQUIRED }),
      season: z.enum(CREATE_SEASONS, { error: REQUIRED }),
      startDate: startDateField(today),
      startMatchDay: required
        .regex(/^\d{1,3}$/, MATCH_DAY)
        .transform(Number)
        .refine((n) => n >= 1, MATCH_DAY),
      prize: z
        .string()
        .trim()
        .max(500, "Prize must be at most 500 characters.")
        .optional()
        .transform((v) => v || null),
      // Scout only (the form shows them for type Scout; without JavaScript always, marked "Scout only").
      prizeTitle: optionalText(PRIZE_TITLE_MAX, `Prize title must be at most ${PRIZE_TITLE_MAX} characters.`),
      prizeDescription: optionalText(PRIZE_DESCRIPTION_MAX, `Prize description must be at most ${PRIZE_DESCRIPTION_MAX} characters.`),
      prizeTermsUrl: optionalHttps("Prize terms URL must be an https:// address."),
      prizeImageUrl: optionalHttps("Prize image URL must be an https:// address."),
    })
    .superRefine((v, ctx) => {
      if (v.type === "scout") return;
      for (const key of ["prizeTitle", "prizeDescription", "prizeTermsUrl", "prizeImageUrl"] as const) {
        if (v[key] !== null) ctx.addIssue({ code: "custom", path: [key], message: SCOUT_ONLY });
      }
    });
}
/** The form's fields (adminCompetitionSchema) and its rules (rulesFromForm of app/lib/competition-rules.ts). */
type AdminCompetitionInput = z.output<ReturnType<typeof adminCompetitionSchema>> & { rules: CompetitionRules };

type CreateOutcome = { ok: true; id: string; message: string } | { ok: false; status: number; message: string };

export async function adminCreateCompetition(db: Db, userId: string, input: AdminCompetitionInput): Promise<CreateOutcome> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<{ id: string }[]>`
        select public.admin_create_competition(
          ${input.name}, ${input.type}, ${input.league}, ${input.season}, ${input.startDate}::date,
          ${input.startMatchDay}::int, ${input.prize}, ${input.prizeTitle}, ${input.prizeDescription},
          ${input.prizeTermsUrl}, ${input.prizeImageUrl}, ${rulesToSql(input.rules)}::jsonb) as id`,
    );
    const id = rows[0]?.id;
    if (!id) return { ok: false, status: 500, message: CREATE_FAILED };
    return { ok: true, id, message: CREATED };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof postgres.PostgresError) {
      if (error.code === "42501") return { ok: false, status: 403, message: ACCESS_DENIED };
      if (error.code === "P0001") return { ok: false, status: 400, message: error.message };
      if (error.code === "23505") return { ok: false, status: 409, message: "A competition with this name and type already exists." };
    }
    console.error("admin_create_competition failed:", (error as Error)?.message ?? error);
    return { ok: false, status: 500, message: CREATE_FAILED };
  }
}
