import postgres from "postgres";
import type { StartNextSeasonRow } from "~/db/row-types.generated";
import type { Db } from "~/db/types";
import type { CodeResult, JoinCode } from "~/models/competitions.server";

/*
 * The next season of an ended private competition (rules file, "History and seasons"; decision 030): its creator
 * starts it (public.start_next_season: the new competition, its key, the previous members' notices and pushes), and
 * a previous member joins it with one tap (public.join_next_season, through every rule of joining). The rules are
 * SQL's; this module turns their answers into results the competition page words.
 */

export type StartNextSeasonResult =
  { ok: true; code: "started" | "already_started"; competitionId: string } | { ok: false; status: 400 | 403 | 404; message: string };

export interface StartNextSeasonInput {
  startMatchDay: number;
  /** The season of the start match day; null keeps the competition's own. */
  season: string | null;
}

/** Starts the next season as the player; refusals come back with the database's message and an HTTP status. */
export async function startNextSeason(
  db: Db,
  userId: string,
  competitionId: string,
  input: StartNextSeasonInput,
): Promise<StartNextSeasonResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql<StartNextSeasonRow[]>`
          select s.code, s.competition_id
            from public.start_next_season(${competitionId}, ${input.startMatchDay}::int, ${input.season}) s`,
    );
    const row = rows[0];
    if (!row || row.code === "not_found" || !row.competition_id) return { ok: false, status: 404, message: "Competition not found" };
    return { ok: true, code: row.code === "started" ? "started" : "already_started", competitionId: row.competition_id };
  } catch (error) {
    if (error instanceof postgres.PostgresError) {
      if (error.code === "42501") return { ok: false, status: 403, message: error.message };
      if (error.code === "P0001") return { ok: false, status: 400, message: error.message };
    }
    throw error;
  }
}

export type JoinNextSeasonCode = JoinCode | "not_invited";

/** The one-tap Join of an invited player; a database failure becomes the "error" result (a toast), never a 500. */
export async function joinNextSeason(db: Db, userId: string, competitionId: string): Promise<CodeResult<JoinNextSeasonCode>> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) => sql<{ code: JoinNextSeasonCode }[]>`select public.join_next_season(${competitionId}) as code`,
    );
    return { code: rows[0].code };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("join_next_season failed:", (error as Error)?.message);
    return { code: "error", message: "An unexpected error occurred." };
  }
}
