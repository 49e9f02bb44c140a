import type { CompetitionHistoryRow, EndedCompetitionsRow, NextSeasonStartDaysRow, RevealedPicksRow } from "~/db/row-types.generated";
import type { Db, NotNull } from "~/db/types";
import { pageCount, pageWindow } from "~/lib/paging";

/*
 * The archive of ended competitions and what the competition page shows of history and seasons (rules file,
 * "History and seasons"; decision 030). Who may read what is SQL's (public.in_archive, revealed_picks and the picks'
 * row-level security, competition_history, next_season_start_days in supabase/schemas/97_history.sql): every query
 * runs as the player, and answers nothing where the rules give nothing.
 */

export const ARCHIVE_PAGE_SIZE = 9;
export const ARCHIVE_PICKS_PAGE_SIZE = 20;

export interface EndedCompetitionCard {
  id: string;
  name: string;
  type: "season" | "knockout";
  league: string;
  season: string;
  visibility: "public" | "private";
  playerCount: number;
  lastMatchDay: number;
  wasMember: boolean;
  /** Where the player finished (public.final_position); null when they were not in it. */
  myFinish: number | null;
}

export interface ArchivePage {
  competitions: EndedCompetitionCard[];
  total: number;
  page: number;
  pageCount: number;
}

type EndedRow = NotNull<EndedCompetitionsRow, "id" | "name" | "type" | "league" | "season" | "visibility">;

/** One page of the player's archive (/competitions?status=ended), most recently ended first. */
export function listEndedCompetitions(db: Db, userId: string, requestedPage: number): Promise<ArchivePage> {
  const { page, offset } = pageWindow(requestedPage, ARCHIVE_PAGE_SIZE);
  return db.asUser(userId, async (sql) => {
    const rows = await sql<EndedRow[]>`
      select e.id, e.name, e.type, e.league, e.season, e.visibility, e.player_count, e.last_match_day, e.was_member,
             e.my_finish, e.total
        from public.ended_competitions(${offset}, ${ARCHIVE_PAGE_SIZE}) e`;
    // The total rides on every row; a page past the last has none, so it is asked again only then (rare).
    const total = rows[0]?.total ?? (offset > 0 ? await countEnded(db, userId) : 0);
    return {
      competitions: rows.map((r) => ({
        id: r.id,
        name: r.name,
        type: r.type as EndedCompetitionCard["type"],
        league: r.league,
        season: r.season,
        visibility: r.visibility as EndedCompetitionCard["visibility"],
        playerCount: r.player_count ?? 0,
        lastMatchDay: r.last_match_day ?? 0,
        wasMember: r.was_member === true,
        myFinish: r.my_finish,
      })),
      total,
      page,
      pageCount: pageCount(total, ARCHIVE_PAGE_SIZE),
    };
  });
}

function countEnded(db: Db, userId: string): Promise<number> {
  return db.asUser(userId, async (sql) => {
    const [row] = await sql<{ total: number | null }[]>`select e.total from public.ended_competitions(0, 1) e`;
    return row?.total ?? 0;
  });
}

// ---------- the competition page ----------

export interface ArchivePick {
  userId: string;
  username: string;
  team: string;
  home: string;
  away: string;
  /** "2 - 1" for a complete match, else null. */
  score: string | null;
  /** win | draw | loss | postponed | not_started (private.pick_outcome_now). */
  outcome: string;
}

export interface CompetitionHistory {
  /** The competition is in the player's archive (ended, and public or theirs): its picks are shown. */
  inArchive: boolean;
  /** The player is its creator or an admin: the CSV downloads are offered. */
  canExport: boolean;
  /** The player may start its next season (the creator, once the private competition ended). */
  canStartNextSeason: boolean;
  /** The match days a next season may start on (only for whoever may start it). */
  startDays: { season: string; matchDay: number; deadline: string | null }[];
  /** Its next season, once started. */
  next: { id: string; name: string } | null;
  /** The player was in the season before this one (a one-tap Join while registration is open). */
  invited: boolean;
  /** One match day's picks, a page at a time (only when inArchive). */
  picks: { matchDay: number | null; rows: ArchivePick[]; page: number; pageCount: number };
}

type PickRow = NotNull<
  Pick<
    RevealedPicksRow,
    "match_day" | "user_id" | "username" | "team" | "home_team" | "away_team" | "home_score" | "away_score" | "outcome"
  >,
  "match_day" | "user_id" | "team" | "home_team" | "away_team" | "outcome"
> & { total: number };

/**
 * The competition page's history part, sent in the same tick as the page's other reads (so in the same round trip):
 * its flags, the next season's start days and the archive's picks of `matchDay` (null: the last one played).
 */
export function getCompetitionHistory(
  db: Db,
  userId: string,
  competitionId: string,
  opts: { matchDay: number | null; picksPage: number },
): Promise<CompetitionHistory> {
  const { page, offset } = pageWindow(opts.picksPage, ARCHIVE_PICKS_PAGE_SIZE);
  return db.asUser(userId, async (sql) => {
    const [flagRows, dayRows, pickRows] = await Promise.all([
      sql<CompetitionHistoryRow[]>`
        select h.in_archive, h.can_export, h.can_start_next_season, h.next_competition_id, h.next_competition_name, h.invited
          from public.competition_history(${competitionId}) h`,
      sql<NextSeasonStartDaysRow[]>`select d.season, d.match_day, d.deadline from public.next_season_start_days(${competitionId}) d`,
      // the one-time filter keeps a competition outside the player's archive from being read at all
      sql<PickRow[]>`
        select p.match_day, p.user_id, p.username, p.team, p.home_team, p.away_team, p.home_score, p.away_score, p.outcome,
               (count(*) over ())::int as total
          from public.revealed_picks(${competitionId}) p
         where (select public.in_archive(${competitionId}))
           and p.match_day = coalesce(${opts.matchDay}::int,
                                      (select c.current_match_day from public.competitions c where c.id = ${competitionId}))
         order by p.sort_name, p.user_id
         limit ${ARCHIVE_PICKS_PAGE_SIZE} offset ${offset}`,
    ]);
    const h = flagRows[0];
    const total = pickRows[0]?.total ?? 0;
    return {
      inArchive: h?.in_archive === true,
      canExport: h?.can_export === true,
      canStartNextSeason: h?.can_start_next_season === true,
      startDays: dayRows.map((d) => ({
        season: d.season ?? "",
        matchDay: d.match_day ?? 0,
        deadline: d.deadline ? new Date(d.deadline).toISOString() : null,
      })),
      next: h?.next_competition_id ? { id: h.next_competition_id, name: h.next_competition_name ?? "" } : null,
      invited: h?.invited === true,
      picks: {
        matchDay: pickRows[0]?.match_day ?? opts.matchDay,
        rows: pickRows.map((r) => ({
          userId: r.user_id,
          username: r.username ?? "",
          team: r.team,
          home: r.home_team,
          away: r.away_team,
          score: r.home_score !== null && r.away_score !== null ? `${r.home_score} - ${r.away_score}` : null,
          outcome: r.outcome,
        })),
        page,
        pageCount: pageCount(total, ARCHIVE_PICKS_PAGE_SIZE),
      },
    };
  });
}
