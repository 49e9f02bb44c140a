import type { AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { formatKickoff } from "~/lib/date-format";
import type { HistoryView } from "~/lib/history";
import { endRefusedWrite, intentOf, invalid, parseForm } from "~/lib/forms.server";
import { joinNextSeasonMessage, pickOutcomeText } from "~/lib/outcome-messages";
import { pageFrom } from "~/lib/paging";
import { getCompetitionHistory, type CompetitionHistory } from "~/models/archive.server";
import type { Db } from "~/db/types";
import type { CompetitionInfo } from "~/models/competition-rows.server";
import { joinNextSeason, startNextSeason } from "~/models/next-season.server";
import { writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The competition page's history and seasons (decision 030): what its loader reads from the URL, what it shows
 * (the archive's picks, the downloads, "Start next season", the one-tap Join), and the two intents' actions. Kept
 * here so that the page's route module only wires them in.
 */

/** The archive's match day (?archiveDay=, null: the last played) and page of picks (?picksPage=) from the URL. */
export function archiveOptionsFrom(url: URL): { matchDay: number | null; picksPage: number } {
  const raw = url.searchParams.get("archiveDay") ?? "";
  const matchDay = /^\d{1,2}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
  return { matchDay, picksPage: pageFrom(url, "picksPage") };
}

/** The page's history reads (public.competition_history and friends), issued with its other reads (one round trip). */
export function readCompetitionHistory(db: Db, userId: string, competitionId: string, url: URL): Promise<CompetitionHistory> {
  return getCompetitionHistory(db, userId, competitionId, archiveOptionsFrom(url));
}

export function historyView(h: CompetitionHistory, c: CompetitionInfo, isMember: boolean, timeZone: string): HistoryView {
  const played = Array.from({ length: Math.max(0, c.currentMatchDay - c.startMatchDay + 1) }, (_, i) => c.startMatchDay + i);
  return {
    invite: h.invited && !isMember && c.registrationStatus === "open",
    startDays: h.canStartNextSeason
      ? h.startDays.map((d) => ({ season: d.season, matchDay: d.matchDay, deadlineText: formatKickoff(d.deadline, timeZone) }))
      : null,
    next: h.next,
    archive: h.inArchive
      ? {
          matchDays: played,
          matchDay: h.picks.matchDay ?? c.currentMatchDay,
          picks: h.picks.rows.map((p) => ({
            userId: p.userId,
            username: p.username,
            team: p.team,
            match: `${p.home} v ${p.away}`,
            score: p.score,
            outcomeText: pickOutcomeText(p.outcome),
          })),
          page: h.picks.page,
          pageCount: h.picks.pageCount,
        }
      : null,
    canExport: h.canExport,
  };
}

// ---------- actions ----------

const MATCH_DAY = "Start Match Day must be a positive whole number.";
const NextSeasonSchema = z.object({
  startMatchDay: z
    .string({ error: MATCH_DAY })
    .trim()
    .regex(/^\d{1,3}$/, MATCH_DAY)
    .transform(Number),
  season: z.string().trim().max(20).optional(),
});

interface Act {
  request: Request;
  context: AppLoadContext;
  competitionId: string;
}

/** intent=next-season: start the next season, then open it (its creator sees the new registration key there). */
async function startNextSeasonAction({ request, context, competitionId }: Act, form: FormData) {
  const parsed = parseForm(form, NextSeasonSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent: "next-season" });
  const { startMatchDay, season } = parsed.data;
  const result = await writeAsUser(request, context, (userId) =>
    startNextSeason(context.db, userId, competitionId, { startMatchDay, season: season || null }),
  );
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return invalid({}, result.message, result.status, { intent: "next-season" });
  }
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  const message =
    result.code === "started"
      ? "Next season started! Everyone who played last season has been invited."
      : "The next season has already started.";
  return redirectWithToast(context.env, `/competition/${result.competitionId}`, {
    type: result.code === "started" ? "success" : "info",
    message,
  });
}

/** intent=join-next-season: the one-tap Join of a player of the last season. */
async function joinNextSeasonAction({ request, context, competitionId }: Act) {
  const result = await writeAsUser(request, context, (userId) => joinNextSeason(context.db, userId, competitionId));
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, `/competition/${competitionId}`, joinNextSeasonMessage(result));
}

/** The page's history intents: next-season (its creator) and join-next-season (a player of the last season). */
export function historyAction(act: Act, form: FormData) {
  return intentOf(form) === "next-season" ? startNextSeasonAction(act, form) : joinNextSeasonAction(act);
}
