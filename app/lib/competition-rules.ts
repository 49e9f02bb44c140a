import { z } from "zod";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPE_VALUES } from "./competition-options";

/**
 * The organiser's rules (rules file "The organiser's rules"; decision 028): the form's field names and values, the
 * one zod schema that reads them, and the plain words of the Rules panel. SQL enforces them
 * (private.competition_rules_of, the same messages) and applies them (match-day processing); this module is what
 * the forms and the Rules panel show. tests/db/competition-rules.test.ts checks both say the same.
 */

export const LIVES_VALUES = [1, 2, 3] as const;
export const DRAW_RULES = ["costs-life", "through"] as const;
export const MISSED_PICK_RULES = ["costs-life", "auto"] as const;
export const EVERYONE_OUT_RULES = ["rollover", "joint"] as const;
export const JOKER_VALUES = ["on", "off"] as const;
export const POINTS_MIN = 0;
export const POINTS_MAX = 10;

export type Lives = (typeof LIVES_VALUES)[number];
export type DrawRule = (typeof DRAW_RULES)[number];
export type MissedPickRule = (typeof MISSED_PICK_RULES)[number];
export type EveryoneOutRule = (typeof EVERYONE_OUT_RULES)[number];

export interface CompetitionRules {
  lives: Lives;
  draws: DrawRule;
  missedPick: MissedPickRule;
  everyoneOut: EveryoneOutRule;
  winPoints: number;
  drawPoints: number;
  lossPoints: number;
  joker: boolean;
}

/** The rules above the organiser's sections: what a competition whose rules were never chosen plays. */
export const DEFAULT_RULES: CompetitionRules = {
  lives: 1,
  draws: "costs-life",
  missedPick: "costs-life",
  everyoneOut: "rollover",
  winPoints: 3,
  drawPoints: 1,
  lossPoints: 0,
  joker: false,
};

/** The refusals, word for word as private.competition_rules_of raises them. */
export const RULE_MESSAGES = {
  lives: "Lives must be 1, 2 or 3.",
  draws: 'Draws must be "A draw costs a life" or "A draw is enough".',
  missedPick: 'Missed pick must be "No pick costs a life" or "Auto-pick".',
  everyoneOut: 'If everyone is out must be "Roll-over" or "Joint winners".',
  points: "Points must be whole numbers from 0 to 10.",
  pointsOrder: "Points for a win must be more than for a draw, and a draw at least as many as a loss.",
  joker: "Joker must be on or off.",
} as const;

/** The choices the forms offer, with the rules file's words. */
export const RULE_OPTIONS = {
  lives: LIVES_VALUES.map((value) => ({ value: String(value), label: String(value) })),
  draws: [
    { value: "costs-life", label: "A draw costs a life" },
    { value: "through", label: "A draw is enough" },
  ],
  missedPick: [
    { value: "costs-life", label: "No pick costs a life" },
    { value: "auto", label: "Auto-pick" },
  ],
  everyoneOut: [
    { value: "rollover", label: "Roll-over" },
    { value: "joint", label: "Joint winners" },
  ],
  joker: [
    { value: "off", label: "Off" },
    { value: "on", label: "On" },
  ],
} as const;

/** A form value: missing or blank means "not chosen", i.e. the default. */
const chosen = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim()) : v);

const oneOf = <T extends readonly [string, ...string[]]>(values: T, message: string, fallback: T[number]) =>
  z.preprocess((v) => chosen(v) ?? fallback, z.enum(values, { error: message }));

const points = (fallback: number) =>
  z.preprocess(
    (v) => chosen(v) ?? String(fallback),
    z
      .string({ error: RULE_MESSAGES.points })
      .regex(/^\d{1,2}$/, RULE_MESSAGES.points)
      .transform(Number)
      .refine((n) => n >= POINTS_MIN && n <= POINTS_MAX, RULE_MESSAGES.points),
  );

/**
 * The rules fields of a create or update-rules form (lives, draws, missedPick, everyoneOut, winPoints, drawPoints,
 * lossPoints, joker), parsed from the form's strings; a field left out is the default. Refused values get the
 * messages of RULE_MESSAGES (the SQL's).
 */
export const rulesSchema = z
  .object({
    lives: z.preprocess(
      (v) => chosen(v) ?? "1",
      z.enum(["1", "2", "3"], { error: RULE_MESSAGES.lives }).transform((v) => Number(v) as Lives),
    ),
    draws: oneOf(DRAW_RULES, RULE_MESSAGES.draws, DEFAULT_RULES.draws),
    missedPick: oneOf(MISSED_PICK_RULES, RULE_MESSAGES.missedPick, DEFAULT_RULES.missedPick),
    everyoneOut: oneOf(EVERYONE_OUT_RULES, RULE_MESSAGES.everyoneOut, DEFAULT_RULES.everyoneOut),
    winPoints: points(DEFAULT_RULES.winPoints),
    drawPoints: points(DEFAULT_RULES.drawPoints),
    lossPoints: points(DEFAULT_RULES.lossPoints),
    joker: z.preprocess(
      (v) => chosen(v) ?? "off",
      z.enum(JOKER_VALUES, { error: RULE_MESSAGES.joker }).transform((v) => v === "on"),
    ),
  })
  .refine((r) => r.winPoints > r.drawPoints && r.drawPoints >= r.lossPoints, { message: RULE_MESSAGES.pointsOrder, path: ["winPoints"] });

const REQUIRED = "Please fill in all required fields.";
const MATCH_DAY = "Start Match Day must be a positive whole number.";

/**
 * type, league, season and startMatchDay of the create forms (private and admin's). The vocabulary is SQL's
 * (private.competition_types / _leagues / _seasons); its messages are the SQL's too.
 */
export const competitionChoiceSchema = z.object({
  type: z.preprocess(chosen, z.enum(CREATE_TYPE_VALUES, { error: "Type must be knockout or season." })),
  league: z.preprocess(chosen, z.enum(CREATE_LEAGUES, { error: "Please choose a league from the list." })),
  season: z.preprocess(chosen, z.enum(CREATE_SEASONS, { error: "Please choose a season from the list." })),
  startMatchDay: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .regex(/^\d{1,3}$/, MATCH_DAY)
    .transform(Number)
    .refine((n) => n >= 1, MATCH_DAY),
});

const RULE_FIELDS = ["lives", "draws", "missedPick", "everyoneOut", "winPoints", "drawPoints", "lossPoints", "joker"] as const;

/** The rules of a posted form: the rules or the first refusal's message. */
export function rulesFromForm(form: FormData): { ok: true; rules: CompetitionRules } | { ok: false; message: string } {
  const raw: Record<string, unknown> = {};
  for (const field of RULE_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") raw[field] = value;
  }
  const parsed = rulesSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? RULE_MESSAGES.lives };
  return { ok: true, rules: parsed.data };
}

/** The rules columns of public.competitions (all NOT NULL, with the old rules as defaults). */
export interface CompetitionRulesColumns {
  lives: number;
  draw_rule: string;
  missed_pick_rule: string;
  everyone_out_rule: string;
  win_points: number;
  draw_points: number;
  loss_points: number;
  joker: boolean;
}

/** The SQL columns as the type (the table's checks guarantee the values). */
export function rulesFromRow(row: CompetitionRulesColumns): CompetitionRules {
  return {
    lives: (LIVES_VALUES as readonly number[]).includes(row.lives) ? (row.lives as Lives) : 1,
    draws: row.draw_rule === "through" ? "through" : "costs-life",
    missedPick: row.missed_pick_rule === "auto" ? "auto" : "costs-life",
    everyoneOut: row.everyone_out_rule === "joint" ? "joint" : "rollover",
    winPoints: row.win_points,
    drawPoints: row.draw_points,
    lossPoints: row.loss_points,
    joker: row.joker === true,
  };
}

/** The rules as the SQL functions take them (p_rules jsonb): keys are the form's field names. */
export function rulesToSql(rules: CompetitionRules): string {
  return JSON.stringify({
    lives: rules.lives,
    draws: rules.draws,
    missedPick: rules.missedPick,
    everyoneOut: rules.everyoneOut,
    winPoints: rules.winPoints,
    drawPoints: rules.drawPoints,
    lossPoints: rules.lossPoints,
    joker: rules.joker ? "on" : "off",
  });
}

/** The Rules panel in plain words: the rules that apply to the competition's type. */
export function rulesLines(type: "knockout" | "season", rules: CompetitionRules): string[] {
  if (type === "season") {
    return [`Points: win ${rules.winPoints}, draw ${rules.drawPoints}, loss ${rules.lossPoints}`, `Joker: ${rules.joker ? "on" : "off"}`];
  }
  return [
    `Lives: ${rules.lives}`,
    rules.draws === "through" ? "A draw is enough" : "A draw costs a life",
    rules.missedPick === "auto" ? "Missed pick: auto-pick" : "Missed pick: costs a life",
    rules.everyoneOut === "joint" ? "If everyone is out: joint winners" : "If everyone is out: roll-over",
  ];
}
