import postgres from "postgres";
import type { CreationMatchDaysRow, UpdateCompetitionRulesResult } from "~/db/row-types.generated";
import type { Db, PlayerSql } from "~/db/types";
import { z } from "zod";
import { PLAYER_CREATE_DEFAULTS } from "~/lib/competition-options";
import { competitionChoiceSchema, rulesFromForm, rulesToSql, type CompetitionRules } from "~/lib/competition-rules";
import { formFields } from "~/lib/forms.server";
import { startDateField } from "~/lib/validation";
import { toIso } from "~/models/fixture-rows.server";

/*
 * Creating a competition with its rules, and the creator's change of the rules (decision 028). The rules are
 * SQL's: create_private_competition / admin_create_competition check them (private.competition_rules_of, the
 * form's messages), update_competition_rules refuses after the start match day's deadline; the forms parse them
 * first with app/lib/competition-rules.ts (the same messages) so a bad value is a 400 before the database.
 */

/** What the create forms offer: a league and season with its match days open for selection (deadline ahead). */
export interface CreationOption {
  league: string;
  season: string;
  matchDays: { matchDay: number; deadline: string }[];
}

/** The open match days of every league of the creation vocabulary. Not awaited: it rides in the page's batch. */
export function creationMatchDaysQuery(sql: PlayerSql) {
  return sql<CreationMatchDaysRow[]>`select m.league, m.season, m.match_day, m.deadline from public.creation_match_days() m`;
}

/** The rows (ordered by league, season, match day) grouped per league and season, in that order. */
export function toCreationOptions(rows: readonly CreationMatchDaysRow[]): CreationOption[] {
  const options: CreationOption[] = [];
  for (const r of rows) {
    if (!r.league || !r.season || r.match_day === null) continue;
    let option = options[options.length - 1];
    if (!option || option.league !== r.league || option.season !== r.season) {
      option = { league: r.league, season: r.season, matchDays: [] };
      options.push(option);
    }
    option.matchDays.push({ matchDay: r.match_day, deadline: toIso(r.deadline) ?? "" });
  }
  return options;
}

/** A validated creation form (competitionChoiceSchema and rulesSchema of app/lib/competition-rules.ts). */
export interface CreatePrivateInput {
  name: string;
  type: string;
  league: string;
  season: string;
  startDate: string;
  startMatchDay: number;
  rules: CompetitionRules;
}

const REQUIRED = "Please fill in all required fields.";

/** name and start date of a create form; `today` is the creator's calendar date (YYYY-MM-DD). */
const nameAndDate = (today: string) =>
  z.object({
    name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(100, "Competition name must be at most 100 characters."),
    startDate: startDateField(today),
  });

/**
 * The private creation form (intent=create-private, the same field names as a crafted POST): name, startDate, type,
 * league, season, startMatchDay and the rules fields. A form that leaves out type, league and season (the old form,
 * before the choice was offered) gets the old defaults; any value outside the lists is refused with the SQL's
 * message, and nothing is created.
 */
export function readCreateForm(form: FormData, today: string): { ok: true; input: CreatePrivateInput } | { ok: false; message: string } {
  const fields = formFields(form);
  const withDefaults = {
    ...fields,
    type: fields.type || PLAYER_CREATE_DEFAULTS.type,
    league: fields.league || PLAYER_CREATE_DEFAULTS.league,
    season: fields.season || PLAYER_CREATE_DEFAULTS.season,
  };
  const base = nameAndDate(today).safeParse(withDefaults);
  if (!base.success) return { ok: false, message: base.error.issues[0]?.message ?? REQUIRED };
  const choice = competitionChoiceSchema.safeParse(withDefaults);
  if (!choice.success) return { ok: false, message: choice.error.issues[0]?.message ?? REQUIRED };
  const rules = rulesFromForm(form);
  if (!rules.ok) return rules;
  return { ok: true, input: { ...base.data, ...choice.data, rules: rules.rules } };
}

export type CreateResult =
  { ok: true; id: string; name: string; registrationKey: string } | { ok: false; type: "info" | "error"; message: string };

/** create_private_competition as the player: type, league, season, start match day and rules as chosen. */
export async function createPrivateCompetition(db: Db, userId: string, input: CreatePrivateInput): Promise<CreateResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<{ id: string; registration_key: string }[]>`
        select id, registration_key from public.create_private_competition(
          ${input.name}, ${input.type}, ${input.league}, ${input.season}, ${input.startDate}::date, ${input.startMatchDay}::int,
          ${rulesToSql(input.rules)}::jsonb)`,
    );
    const row = rows[0];
    if (!row) return { ok: false, type: "error", message: "Failed to create private competition" };
    return { ok: true, id: row.id, name: input.name, registrationKey: row.registration_key };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof postgres.PostgresError) {
      if (error.code === "P0001") return { ok: false, type: "info", message: error.message };
      if (error.code === "23505") return { ok: false, type: "info", message: "A competition with this name and type already exists." };
    }
    console.error("create_private_competition failed:", (error as Error)?.message);
    return { ok: false, type: "error", message: "Failed to create private competition" };
  }
}

export const RULES_SAVED = "Rules saved.";
export const RULES_FIXED = "The rules are fixed once the competition has started.";
export const RULES_FORBIDDEN = "Only the competition's creator can change its rules.";
const RULES_FAILED = "Failed to save the rules.";

export type UpdateRulesResult = { ok: true } | { ok: false; status: 400 | 403 | 404 | 500; message: string };

/**
 * The creator's (or an admin's) change of the rules (intent=update-rules). The database decides who may and until
 * when (P0001 "The rules are fixed once the competition has started." after the start match day's deadline);
 * a refusal is a 4xx with its message and changes nothing.
 */
export async function updateCompetitionRules(
  db: Db,
  userId: string,
  competitionId: string,
  rules: CompetitionRules,
): Promise<UpdateRulesResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<{ code: UpdateCompetitionRulesResult }[]>`
        select public.update_competition_rules(${competitionId}, ${rulesToSql(rules)}::jsonb) as code`,
    );
    if (rows[0]?.code === "saved") return { ok: true };
    return { ok: false, status: 404, message: "Competition not found" };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof postgres.PostgresError) {
      if (error.code === "42501") return { ok: false, status: 403, message: RULES_FORBIDDEN };
      if (error.code === "P0001") return { ok: false, status: 400, message: error.message };
    }
    console.error("update_competition_rules failed:", (error as Error)?.message ?? error);
    return { ok: false, status: 500, message: RULES_FAILED };
  }
}
