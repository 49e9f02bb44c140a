/**
 * What the adoption may assume about the original app's tables (decision 026). The spec lists their columns
 * (part 1 section 3 "Entities and their fields", part 2 section 3; where both list a table, the union): the
 * adoption reads those it needs without asking (SPEC_READS, checked before anything changes). Every other column
 * it reads (OPTIONAL_READS) is looked up in information_schema first and read only when present; without it the
 * value is derived (the elimination match day, a creation time) or taken from elsewhere.
 */
import type postgres from "postgres";

type Sql = postgres.Sql | postgres.TransactionSql;

/** The spec's columns each step reads, per original table (auth.users: Supabase's own, always there). */
export const SPEC_READS: Record<string, readonly string[]> = {
  profiles: [
    "id",
    "role",
    "username",
    "display_name",
    "date_of_birth",
    "gender",
    "time_zone",
    "analytics_consent",
    "analytics_consent_at",
    "notifications_enabled",
    "fcm_token",
    "fcm_token_updated_at",
  ],
  competitions: [
    "id",
    "name",
    "type",
    "league",
    "season",
    "start_date",
    "start_match_day",
    "current_match_day",
    "status",
    "registration_status",
    "visibility",
    "registration_key",
    "prize",
    "knockout_winner",
    "created_by",
    "created_at",
    "total_match_days",
    "prize_title",
    "prize_description",
    "prize_terms_url",
    "prize_image_url",
  ],
  fixtures: ["id", "league", "season", "match_day", "kickoff_time", "home_team", "away_team", "home_score", "away_score", "status"],
  user_selections: ["id", "user_id", "competition_id", "match_day", "status"],
  team_selections: ["id", "user_id", "competition_id", "match_day", "fixture_id", "selected_team", "team", "created_at"],
  tickets: ["id", "user_id", "ticket_type", "target_competition_id", "used", "created_at"],
  scout_entries: ["id", "competition_id", "user_id", "match_day", "entry_index", "total_points", "exact_count", "locked", "created_at"],
  scout_predictions: ["id", "scout_entry_id", "fixture_id", "home_goals", "away_goals"],
  release_notes: ["id", "version", "title", "content", "release_date", "is_published", "created_by"],
};

/** auth.users columns without which there is nothing to carry over. */
export const AUTH_READS = ["id", "email", "encrypted_password"] as const;

/** Columns beyond the spec's lists that the adoption reads when present (schema.table.column). */
export const OPTIONAL_READS = [
  "public.user_selections.knocked_out_on",
  "public.user_selections.created_at",
  "public.profiles.created_at",
  "public.release_notes.created_at",
  "auth.users.email_confirmed_at",
  "auth.users.banned_until",
  "auth.users.deleted_at",
  "auth.users.last_sign_in_at",
  "auth.users.created_at",
] as const;

/** The columns of every table and view of a schema, as information_schema shows them to the adopting role. */
export async function columnsOf(sql: Sql, schema: string): Promise<Map<string, Set<string>>> {
  const rows = await sql<{ table_name: string; column_name: string }[]>`
    select table_name::text, column_name::text from information_schema.columns where table_schema = ${schema}`;
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

/** The columns of one schema's tables, with a fallback for those that may be missing. */
export class Columns {
  constructor(private readonly tables: Map<string, Set<string>>) {}

  static async of(sql: Sql, schema: string): Promise<Columns> {
    return new Columns(await columnsOf(sql, schema));
  }

  hasTable(table: string): boolean {
    return this.tables.has(table);
  }

  has(table: string, column: string): boolean {
    return this.tables.get(table)?.has(column) ?? false;
  }

  /** `alias.column` when the table has the column, else the fallback SQL expression. */
  or(alias: string, table: string, column: string, fallback: string): string {
    return this.has(table, column) ? `${alias}.${column}` : fallback;
  }
}

/** The spec's columns the adoption reads that the original tables (in public) lack: "public.t.c" each. */
export async function missingSpecColumns(sql: Sql): Promise<string[]> {
  const [pub, auth] = await Promise.all([columnsOf(sql, "public"), columnsOf(sql, "auth")]);
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(SPEC_READS)) {
    const present = pub.get(table);
    if (!present) continue; // a table the adoption can do without (user_selections, release_notes) is skipped whole
    for (const c of columns) if (!present.has(c)) missing.push(`public.${table}.${c}`);
  }
  for (const c of AUTH_READS) if (!auth.get("users")?.has(c)) missing.push(`auth.users.${c}`);
  return missing;
}

/** The optional columns present in the original (read before the tables move). */
export async function optionalColumnsPresent(sql: Sql): Promise<string[]> {
  const [pub, auth] = await Promise.all([columnsOf(sql, "public"), columnsOf(sql, "auth")]);
  const schemas: Record<string, Map<string, Set<string>>> = { public: pub, auth };
  return OPTIONAL_READS.filter((name) => {
    const [schema, table, column] = name.split(".");
    return schemas[schema].get(table)?.has(column) ?? false;
  });
}

/** A match day number out of whatever the original stored (an integer, or text such as "Match Day 4"). */
export function matchDayOf(expression: string): string {
  return `(select case when d between 1 and 1000 then d end from (select substring((${expression})::text from '([0-9]{1,4})')::integer as d) x)`;
}
