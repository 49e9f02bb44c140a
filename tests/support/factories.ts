/**
 * Test data written straight into the database as the owner (no API role, no row-level security), shared by
 * the database tests' arrange steps (tests/db) and the browser tests' (tests/e2e/arrange.ts, fixtures.ts).
 *
 * Every factory takes the postgres.js client to write with and returns what a test needs to refer to the
 * rows again. Options left out get the values a real row would have (the column defaults, a start date on the
 * start match day, league and season from the competition); `columns` overrides raw column values, including
 * bad ones for the constraint tests.
 */
import type postgres from "postgres";

/** Any postgres.js client (the tests' clients differ only in their type options). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- postgres.Sql<T> is invariant in T: any is the only common type
export type Sql = postgres.Sql<any>;

export const DEFAULT_LEAGUE = "Premier League";
export const DEFAULT_SEASON = "2025/26";

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

/** A short random tag for names that must be unique across runs sharing a database. */
export function uniqueTag(): string {
  return Math.random().toString(36).slice(2, 10);
}

// ---------------------------------------------------------------------------------------------------------
// Accounts and profiles

export interface AccountOptions {
  email?: string;
  /** Stored as pgcrypto bcrypt (as the app stores it), so the account can log in through /login. Without a
   * password the hash is a placeholder that matches no password. */
  password?: string;
  /** Default true: a confirmed account, as one whose confirmation link was opened. false: signed up, link not
   * opened yet (cannot log in; a referral waits). */
  confirmed?: boolean;
}

export interface Account {
  id: string;
  email: string;
}

/** An account without a profile (a player who signed up, confirmed, and has not chosen a username yet). */
export async function createAccount(sql: Sql, opts: AccountOptions = {}): Promise<Account> {
  const email = opts.email ?? `account.${uniqueTag()}@example.test`;
  const confirmedAt = opts.confirmed === false ? null : new Date();
  // Cost 4 keeps arranging fast; the app checks any bcrypt cost with crypt(password, hash).
  const [row] =
    opts.password === undefined
      ? await sql<{ id: string }[]>`
        insert into account.accounts (email, password_hash, confirmed_at) values (${email}, 'x', ${confirmedAt}) returning id`
      : await sql<{ id: string }[]>`
        insert into account.accounts (email, password_hash, confirmed_at)
        values (${email}, extensions.crypt(${opts.password}, extensions.gen_salt('bf', 4)), ${confirmedAt}) returning id`;
  return { id: row.id, email };
}

export type Role = "player" | "admin";
export type Gender = "male" | "female" | "nonbinary" | "self-describe" | "prefer-not-to-say";

export interface PlayerOptions extends AccountOptions {
  /** Default: p + a random tag. The email defaults to `<username in lower case>@example.test`. */
  username?: string;
  role?: Role;
  dateOfBirth?: string;
  gender?: Gender;
  genderSelfDescribe?: string;
  /** Default: the column default (UTC). */
  timeZone?: string;
}

export interface Player extends Account {
  username: string;
  role: Role;
}

/** A player with a complete profile, as profile setup leaves them. */
export async function createPlayer(sql: Sql, opts: PlayerOptions = {}): Promise<Player> {
  const username = opts.username ?? `p${uniqueTag()}`;
  const role = opts.role ?? "player";
  const account = await createAccount(sql, { ...opts, email: opts.email ?? `${username.toLowerCase()}@example.test` });
  const profile: Record<string, unknown> = {
    id: account.id,
    username,
    date_of_birth: opts.dateOfBirth ?? "1990-01-01",
    gender: opts.gender ?? "prefer-not-to-say",
    role,
  };
  if (opts.genderSelfDescribe !== undefined) profile.gender_self_describe = opts.genderSelfDescribe;
  if (opts.timeZone !== undefined) profile.time_zone = opts.timeZone;
  await sql`insert into public.profiles ${sql(profile)}`;
  return { ...account, username, role };
}

export function createAdmin(sql: Sql, opts: Omit<PlayerOptions, "role"> = {}): Promise<Player> {
  return createPlayer(sql, { ...opts, role: "admin" });
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures

export interface FixtureToCreate {
  matchDay: number;
  kickoff: Date;
  home: string;
  away: string;
  status?: "pending" | "complete" | "postponed";
}

export interface CreatedFixture {
  id: string;
  match_day: number;
  home_team: string;
  away_team: string;
}

/** Fixtures of one league and season, in the given order (ids in the same order). */
export async function createFixtures(sql: Sql, league: string, season: string, fixtures: FixtureToCreate[]): Promise<CreatedFixture[]> {
  const created: CreatedFixture[] = [];
  for (const f of fixtures) {
    const row: Record<string, unknown> = {
      league,
      season,
      match_day: f.matchDay,
      kickoff_time: f.kickoff,
      home_team: f.home,
      away_team: f.away,
    };
    if (f.status) row.status = f.status;
    const [fixture] = await sql<CreatedFixture[]>`
      insert into public.fixtures ${sql(row)} returning id::text, match_day, home_team, away_team`;
    created.push(fixture);
  }
  return created;
}

export interface LeagueToCreate {
  league: string;
  season?: string;
  /** Match days 1..matchDays, one week apart. */
  matchDays: number;
  /** First kickoff of match day 1. */
  firstKickoff: Date;
  /** The same pairings every match day, kicking off an hour apart in this order. */
  pairs: ReadonlyArray<readonly [string, string]>;
}

/** A league of pending fixtures: every match day the same pairings, match days a week apart. */
export function createLeague(sql: Sql, l: LeagueToCreate): Promise<CreatedFixture[]> {
  const fixtures: FixtureToCreate[] = [];
  for (let d = 1; d <= l.matchDays; d++) {
    const start = l.firstKickoff.getTime() + (d - 1) * WEEK;
    l.pairs.forEach(([home, away], i) => fixtures.push({ matchDay: d, kickoff: new Date(start + i * HOUR), home, away }));
  }
  return createFixtures(sql, l.league, l.season ?? DEFAULT_SEASON, fixtures);
}

// ---------------------------------------------------------------------------------------------------------
// Competitions, memberships and picks

export interface CompetitionOptions {
  /** Default: `Competition <tag>`. */
  name?: string;
  type?: "knockout" | "season" | "scout";
  league?: string;
  season?: string;
  /** Default 1. */
  startMatchDay?: number;
  /** Default: the start match day. */
  currentMatchDay?: number;
  /** YYYY-MM-DD, or "today" (the database's current date). Default: the day of the start match day's first
   * kickoff (UTC), as a competition made for that match day has; today when the league has no such fixture. */
  startDate?: string;
  totalMatchDays?: number;
  status?: "active" | "inactive";
  registrationStatus?: "open" | "closed" | "completed";
  visibility?: "public" | "private";
  createdBy?: string | null;
  knockoutWinner?: string | null;
  /** Raw column values, applied last. */
  columns?: Record<string, unknown>;
}

export interface Competition {
  id: string;
  name: string;
  /** Generated by the database for private competitions. */
  registrationKey: string | null;
}

export async function createCompetition(sql: Sql, opts: CompetitionOptions = {}): Promise<Competition> {
  const league = opts.league ?? DEFAULT_LEAGUE;
  const season = opts.season ?? DEFAULT_SEASON;
  const startMatchDay = opts.startMatchDay ?? 1;
  let startDate = opts.startDate;
  if (startDate === "today") {
    [{ day: startDate }] = await sql<{ day: string }[]>`select current_date::text as day`;
  } else if (startDate === undefined) {
    [{ day: startDate }] = await sql<{ day: string }[]>`
      select coalesce(
               (select (m.first_kickoff_time at time zone 'UTC')::date::text from public.matchdays m
                 where m.league = ${league} and m.season = ${season} and m.match_day = ${startMatchDay}),
               current_date::text) as day`;
  }
  const row: Record<string, unknown> = {
    name: opts.name ?? `Competition ${uniqueTag()}`,
    type: opts.type ?? "knockout",
    league,
    season,
    start_date: startDate,
    start_match_day: startMatchDay,
    current_match_day: opts.currentMatchDay ?? startMatchDay,
  };
  if (opts.totalMatchDays !== undefined) row.total_match_days = opts.totalMatchDays;
  if (opts.status !== undefined) row.status = opts.status;
  if (opts.registrationStatus !== undefined) row.registration_status = opts.registrationStatus;
  if (opts.visibility !== undefined) row.visibility = opts.visibility;
  if (opts.createdBy !== undefined) row.created_by = opts.createdBy;
  if (opts.knockoutWinner !== undefined) row.knockout_winner = opts.knockoutWinner;
  Object.assign(row, opts.columns);
  const [c] = await sql<{ id: string; name: string; registration_key: string | null }[]>`
    insert into public.competitions ${sql(row)} returning id, name, registration_key`;
  return { id: c.id, name: c.name, registrationKey: c.registration_key };
}

export interface MembershipOptions {
  /** The match day the player joined on. Default: the competition's current match day. */
  matchDay?: number;
  /** An elimination: status eliminated, knocked out on this match day. */
  knockedOutOn?: number;
  status?: "active" | "completed" | "eliminated";
}

/** Registers a player in a competition (league and season come from the competition, by trigger). */
export async function addMember(sql: Sql, competitionId: string, userId: string, opts: MembershipOptions = {}): Promise<void> {
  const row: Record<string, unknown> = { user_id: userId, competition_id: competitionId };
  if (opts.matchDay !== undefined) row.match_day = opts.matchDay;
  if (opts.knockedOutOn !== undefined) {
    row.status = "eliminated";
    row.knocked_out_on = opts.knockedOutOn;
  }
  if (opts.status !== undefined) row.status = opts.status;
  await sql`insert into public.user_selections ${sql(row)}`;
}

export interface PickToCreate {
  userId: string;
  competitionId: string;
  matchDay: number;
  /** A team playing that match day in the competition's league and season. */
  team: string;
}

/**
 * A pick on the team's fixture of that match day (prediction follows the side, by trigger). Throws when the
 * team has no fixture then; returns the number of picks written (1).
 */
export async function addPick(sql: Sql, p: PickToCreate): Promise<number> {
  const result = await sql`
    insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team)
    select ${p.userId}, c.id, ${p.matchDay}, f.id, ${p.team}
      from public.competitions c
      join public.fixtures f on f.league = c.league and f.season = c.season
     where c.id = ${p.competitionId} and f.match_day = ${p.matchDay} and ${p.team} in (f.home_team, f.away_team)`;
  if (result.count === 0) throw new Error(`addPick: ${p.team} has no fixture on match day ${p.matchDay} of competition ${p.competitionId}`);
  return result.count;
}

// ---------------------------------------------------------------------------------------------------------
// Scout

export interface ScoutCompetitionOptions extends Omit<CompetitionOptions, "type"> {
  prizeTitle?: string;
  prizeDescription?: string;
  prizeTermsUrl?: string;
  prizeImageUrl?: string;
}

/**
 * An active Scout competition (the database grants every player its FootyCoach ticket on insert). A test that
 * needs its own leaderboards and lock gives it a season of its own (any text up to 20 characters; only the
 * creation forms limit the vocabulary) with fixtures made by createFixtures.
 */
export function createScoutCompetition(sql: Sql, opts: ScoutCompetitionOptions = {}): Promise<Competition> {
  const { prizeTitle, prizeDescription, prizeTermsUrl, prizeImageUrl, ...rest } = opts;
  const columns: Record<string, unknown> = { ...rest.columns };
  if (prizeTitle !== undefined) columns.prize_title = prizeTitle;
  if (prizeDescription !== undefined) columns.prize_description = prizeDescription;
  if (prizeTermsUrl !== undefined) columns.prize_terms_url = prizeTermsUrl;
  if (prizeImageUrl !== undefined) columns.prize_image_url = prizeImageUrl;
  return createCompetition(sql, { ...rest, type: "scout", columns });
}

/** Unused referral tickets for a player (as a referral would award them; referral_id left empty). */
export async function giveReferralTickets(sql: Sql, userId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await sql`insert into public.tickets (user_id, ticket_type) values (${userId}, 'referral')`;
}

/** Spends (marks used) the player's FootyCoach tickets of a competition, for the Ticket Required state. */
export async function spendFootyCoachTickets(sql: Sql, userId: string, competitionId: string): Promise<void> {
  await sql`update public.tickets set used = true, used_at = now()
             where user_id = ${userId} and target_competition_id = ${competitionId} and not used`;
}
