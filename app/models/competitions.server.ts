import postgres from "postgres";
import type { UserCompetitionStatsViewRow } from "~/db/row-types.generated";
import type { Db, NotNull, PlayerSql } from "~/db/types";
import type { SqlFragment } from "~/lib/sql-inline";
import type { ListFilters, MyFilters } from "~/lib/competition-filters";
import { isUuid } from "~/lib/ids";
import { pageCount, pageWindow } from "~/lib/paging";
import { rulesFromRow, type CompetitionRules, type CompetitionRulesColumns } from "~/lib/competition-rules";
import { registrationState, rulesColumns } from "~/models/competition-rows.server";
import { creationMatchDaysQuery, toCreationOptions, type CreationOption } from "~/models/competition-creation.server";

/*
 * Competitions list, My Competitions, joining and unregistering (creation: competition-creation.server.ts).
 * Every query runs as the player (db.asUser) so row-level security applies; the rules themselves
 * (registration window, key check, membership, whether a member may pick now) live in SQL: join_competition,
 * unregister_competition, create_private_competition, registration_state and the stats view's selection_status.
 */

export const PAGE_SIZE = 9;

/** A fixed SQL expression a filter narrows: a column, or the one computed rule (never taken from the request). */
type FilterColumn = string | ((sql: PlayerSql) => SqlFragment);

/**
 * "and <column> = <value>" for every filter that is set ("" = All adds nothing). The columns are fixed
 * identifiers per list, never taken from the request; the values travel as parameters.
 */
function filterSql<F extends Record<string, string>>(sql: PlayerSql, filters: F, columns: Record<keyof F, FilterColumn>) {
  return Object.entries(columns).reduce(
    (clause, [param, column]) => {
      if (!filters[param]) return clause;
      const expression = typeof column === "string" ? sql(column) : column(sql);
      return sql`${clause} and ${expression} = ${filters[param]}`;
    },
    sql``,
  );
}

// ---------- competitions list ----------

/** A competition's registration deadline: its start match day's selection deadline (first kickoff - 1 h); null = TBA. */
export const registrationDeadline = (sql: PlayerSql) => sql`public.matchday_deadline(c.league, c.season, c.start_match_day)`;

/**
 * The order of competitions a player may join, the next step first (issue 22): the soonest registration deadline,
 * TBA last, then start date and name (id keeps pages stable). One home: the Competitions list and the dashboard's
 * Upcoming list both sort by it. Reads the competitions row as `c`.
 */
export const byRegistrationDeadline = (sql: PlayerSql) =>
  sql`${registrationDeadline(sql)} nulls last, c.start_date asc, c.name asc, c.id asc`;

/** The competitions column each list filter narrows; registration is always set (it has no "All"). */
const LIST_COLUMNS: Record<keyof ListFilters, FilterColumn> = {
  type: "c.type",
  league: "c.league",
  season: "c.season",
  registration: registrationState,
  visibility: "c.visibility",
};

export interface CompetitionCardData {
  id: string;
  name: string;
  type: string;
  league: string;
  season: string;
  visibility: "public" | "private";
  /** open | closed | completed as the rule stands now (public.registration_state): Register is offered only when open. */
  registrationStatus: string;
  playerCount: number;
  /** Registration closes at the start match day's selection deadline (first kickoff - 1 h); null = TBA. */
  deadline: string | null;
  joined: boolean;
  /** The organiser's rules, shown before joining (rulesLines). */
  rules: CompetitionRules;
}

/** One page of a competitions list, PAGE_SIZE cards a page. */
interface ListPage<Card> {
  competitions: Card[];
  total: number;
  page: number;
  pageCount: number;
}

export interface CompetitionListPage extends ListPage<CompetitionCardData> {
  /** The just-created competition (no-JS result view), only for its creator. */
  created: { id: string; name: string; registrationKey: string } | null;
  /** The competition whose key dialog is open (?join=<id>), if it is private, with its type and rules. */
  joinTarget: { id: string; name: string; type: string; rules: CompetitionRules } | null;
  /** What the create form offers: each league and season with its open match days (public.creation_match_days). */
  creationOptions: CreationOption[];
}

function listWhere(sql: PlayerSql, f: ListFilters) {
  return sql`c.type <> 'scout' ${filterSql(sql, f, LIST_COLUMNS)}`;
}

interface ListRow
  extends Pick<CompetitionCardData, "id" | "name" | "type" | "league" | "season" | "visibility" | "joined">, CompetitionRulesColumns {
  registration_status: string;
  player_count: number;
  registration_deadline: Date | string | null;
}

/**
 * One page of the competitions list (scout never listed, soonest registration deadline first), its total, the joined
 * flag per card, and the optional created / key-dialog competitions: all in one transaction, the
 * statements pipelined.
 */
export async function listCompetitions(
  db: Db,
  userId: string,
  filters: ListFilters,
  requestedPage: number,
  opts: { createdId?: string | null; joinId?: string | null } = {},
): Promise<CompetitionListPage> {
  const { page, offset } = pageWindow(requestedPage, PAGE_SIZE);
  return db.asUser(userId, async (sql) => {
    const createdId = opts.createdId && isUuid(opts.createdId) ? opts.createdId : null;
    const joinId = opts.joinId && isUuid(opts.joinId) ? opts.joinId : null;
    const [countRows, rows, createdRows, joinRows, creationRows] = await Promise.all([
      sql<{ total: number }[]>`select count(*)::int as total from public.competitions c where ${listWhere(sql, filters)}`,
      sql<ListRow[]>`
        select c.id, c.name, c.type, c.league, c.season, c.visibility, ${registrationState(sql)} as registration_status,
               c.player_count, ${rulesColumns(sql)},
               ${registrationDeadline(sql)} as registration_deadline,
               exists (select 1 from public.user_selections us
                        where us.competition_id = c.id and us.user_id = ${userId}) as joined
          from public.competitions c
         where ${listWhere(sql, filters)}
         order by ${byRegistrationDeadline(sql)}
         limit ${PAGE_SIZE} offset ${offset}`,
      createdId
        ? sql<{ id: string; name: string; key: string | null }[]>`
            select c.id, c.name, public.competition_registration_key(c.id) as key
              from public.competitions c where c.id = ${createdId} and c.created_by = ${userId}`
        : Promise.resolve([]),
      joinId
        ? sql<({ id: string; name: string; type: string } & CompetitionRulesColumns)[]>`
            select c.id, c.name, c.type, ${rulesColumns(sql)} from public.competitions c
             where c.id = ${joinId} and c.visibility = 'private' and c.type <> 'scout'`
        : Promise.resolve([]),
      creationMatchDaysQuery(sql),
    ]);
    const join = joinRows[0];
    const total = countRows[0]?.total ?? 0;
    const created = createdRows[0]?.key ? { id: createdRows[0].id, name: createdRows[0].name, registrationKey: createdRows[0].key } : null;
    return {
      competitions: rows.map((r) => ({
        id: r.id,
        name: r.name,
        type: r.type,
        league: r.league,
        season: r.season,
        visibility: r.visibility,
        registrationStatus: r.registration_status,
        playerCount: r.player_count ?? 0,
        deadline: r.registration_deadline ? new Date(r.registration_deadline).toISOString() : null,
        joined: r.joined,
        rules: rulesFromRow(r),
      })),
      total,
      page,
      pageCount: pageCount(total, PAGE_SIZE),
      created,
      joinTarget: join ? { id: join.id, name: join.name, type: join.type, rules: rulesFromRow(join) } : null,
      creationOptions: toCreationOptions(creationRows),
    };
  });
}

// ---------- My Competitions ----------

/** The stats view column each My Competitions filter narrows. */
const MY_COLUMNS: Record<keyof MyFilters, string> = {
  type: "v.competition_type",
  league: "v.league",
  season: "v.season",
  status: "v.membership_status",
  competitionStatus: "v.competition_status",
};

function myWhere(sql: PlayerSql, userId: string, f: MyFilters) {
  return sql`v.user_id = ${userId} and v.competition_type <> 'scout' ${filterSql(sql, f, MY_COLUMNS)}`;
}

export interface MyCompetitionCard {
  id: string;
  name: string;
  type: string;
  league: string;
  season: string;
  matchDay: number | null;
  hasSelection: boolean;
  currentSelection: string | null;
  /** The member may not pick now (the stats view's selection_status): the card shows Selection Closed. */
  selectionClosed: boolean;
  eliminated: boolean;
  membershipStatus: string;
}

export interface MyCompetitionsPage extends ListPage<MyCompetitionCard> {
  /** True when the player has no active (non-scout) competition at all. */
  noActive: boolean;
}

/** The columns My Competitions reads from the stats view (the membership's keys and the competition's NOT NULL ones). */
type MyRow = NotNull<
  Pick<
    UserCompetitionStatsViewRow,
    | "competition_id"
    | "competition"
    | "competition_type"
    | "league"
    | "season"
    | "current_match_day"
    | "joined_match_day"
    | "has_selection"
    | "current_selection"
    | "selection_status"
    | "membership_status"
  >,
  "competition_id" | "competition_type" | "league" | "season"
>;

export async function listMyCompetitions(db: Db, userId: string, f: MyFilters, requestedPage: number): Promise<MyCompetitionsPage> {
  const { page, offset } = pageWindow(requestedPage, PAGE_SIZE);
  return db.asUser(userId, async (sql) => {
    const [counts, rows] = await Promise.all([
      sql<{ total: number; active: number }[]>`
        select count(*) filter (where ${myWhere(sql, userId, f)})::int as total,
               count(*) filter (where v.competition_status = 'active')::int as active
          from public.user_competition_stats_view v
         where v.user_id = ${userId} and v.competition_type <> 'scout'`,
      sql<MyRow[]>`
        select v.competition_id, v.competition, v.competition_type, v.league, v.season, v.current_match_day,
               v.joined_match_day, v.has_selection, v.current_selection, v.selection_status, v.membership_status
          from public.user_competition_stats_view v
         where ${myWhere(sql, userId, f)}
         order by v.competition_status asc, v.competition asc, v.competition_id asc
         limit ${PAGE_SIZE} offset ${offset}`,
    ]);
    const total = counts[0]?.total ?? 0;
    return {
      competitions: rows.map((r) => ({
        id: r.competition_id,
        name: r.competition?.trim() ? r.competition : "Unnamed Competition",
        type: r.competition_type,
        league: r.league,
        season: r.season,
        matchDay: r.current_match_day ?? r.joined_match_day ?? null,
        hasSelection: r.has_selection === true,
        currentSelection: r.current_selection,
        selectionClosed: r.selection_status === "closed",
        eliminated: r.competition_type === "knockout" && (r.membership_status === "eliminated" || r.selection_status === "eliminated"),
        membershipStatus: r.membership_status ?? "active",
      })),
      total,
      page,
      pageCount: pageCount(total, PAGE_SIZE),
      noActive: (counts[0]?.active ?? 0) === 0,
    };
  });
}

// ---------- joining and unregistering ----------

export type JoinCode = "joined" | "already_joined" | "not_found" | "registration_closed" | "no_username" | "invalid_key" | "not_signed_in";
export type UnregisterCode = "unregistered" | "not_registered" | "registration_closed" | "not_signed_in";
export type Toastish = { type: "info" | "success" | "error"; message: string };

/** What a code-returning SQL function answered, or the short text of a database failure. */
export type CodeResult<C extends string> = { code: C } | { code: "error"; message: string };
export type JoinResult = CodeResult<JoinCode>;
export type UnregisterResult = CodeResult<UnregisterCode>;

/** A short, safe text of a database failure (never a stack trace). */
function shortMessage(error: unknown): string {
  const message = error instanceof postgres.PostgresError ? error.message : "";
  const line = message.split("\n")[0]?.trim() ?? "";
  return line && line.length <= 160 ? line : "An unexpected error occurred.";
}

/**
 * One call of a SQL function that answers a code, as the player. A database failure becomes the "error"
 * result (logged, shown as a toast) instead of a 500; a Response (e.g. the database is unavailable) passes.
 */
async function callCodeFunction<C extends string>(
  db: Db,
  userId: string,
  name: string,
  query: (sql: PlayerSql) => PromiseLike<{ code: C }[]>,
): Promise<CodeResult<C>> {
  try {
    const rows = await db.asUser(userId, query);
    return { code: rows[0].code };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`${name} failed:`, (error as Error)?.message);
    return { code: "error", message: shortMessage(error) };
  }
}

/** join_competition under RLS; the key (private ones) is compared by the database after trimming, in any letter case. */
export function joinCompetition(db: Db, userId: string, competitionId: string, key?: string | null): Promise<JoinResult> {
  return callCodeFunction(
    db,
    userId,
    "join_competition",
    (sql) => sql<{ code: JoinCode }[]>`select public.join_competition(${competitionId}, ${key ?? null}) as code`,
  );
}

export function unregisterCompetition(db: Db, userId: string, competitionId: string): Promise<UnregisterResult> {
  return callCodeFunction(
    db,
    userId,
    "unregister_competition",
    (sql) => sql<{ code: UnregisterCode }[]>`select public.unregister_competition(${competitionId}) as code`,
  );
}
