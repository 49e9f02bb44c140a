/**
 * Filter and creation vocabularies of the competition lists (spec part 1 §2, §5, §9); shared by server and client.
 * The only TypeScript copy of each list: forms, filters and zod schemas import them from here. The creation lists
 * are enforced by SQL (private.competition_types / _leagues / _seasons, public.default_prize);
 * tests/db/vocabulary.test.ts fails when these and the SQL ones differ.
 */

/** The types any competition can be created with, private ones too (Scout: ADMIN_CREATE_TYPE_VALUES). */
export const CREATE_TYPE_VALUES = ["knockout", "season"] as const;

export function typeLabel(type: string): string {
  return type === "season" ? "Season" : type === "knockout" ? "Knockout" : type === "scout" ? "Scout" : type;
}

export const TYPE_OPTIONS = CREATE_TYPE_VALUES.map((value) => ({ value, label: typeLabel(value) }));

/**
 * What an admin may create in the admin panel: the creation types plus Scout (always public, with its prize).
 * SQL: private.admin_competition_types().
 */
export const ADMIN_CREATE_TYPE_VALUES = [...CREATE_TYPE_VALUES, "scout"] as const;
export const ADMIN_CREATE_TYPES = ADMIN_CREATE_TYPE_VALUES.map((value) => ({ value, label: typeLabel(value) }));

/** Limits of a Scout competition's prize fields (the competitions table's checks; private.create_competition). */
export const PRIZE_TITLE_MAX = 200;
export const PRIZE_DESCRIPTION_MAX = 4000;
export const PRIZE_URL_MAX = 2000;
/** An https:// address: host, optional port, then printable characters without spaces (private.is_https_url). */
export const HTTPS_URL = /^https:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][!-~]*)?$/;
export const LEAGUE_OPTIONS = ["Premier League", "Championship", "La Liga", "Bundesliga", "Serie A", "MLS", "World Cup"] as const;
export const SEASON_OPTIONS = ["2024/25", "2025", "2025/26"] as const;
export const REGISTRATION_OPTIONS = [
  { value: "open", label: "Open" },
  { value: "closed", label: "Closed" },
  { value: "completed", label: "Completed" },
] as const;
export const VISIBILITY_OPTIONS = [
  { value: "public", label: "Public" },
  { value: "private", label: "Private" },
] as const;
export const USER_STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "completed", label: "Completed" },
  { value: "eliminated", label: "Eliminated" },
] as const;
export const COMPETITION_STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
] as const;

// Creation (section 5): admins choose; everyone else is forced to PLAYER_CREATE_DEFAULTS (the server enforces it).
export const CREATE_TYPES = TYPE_OPTIONS;
export const CREATE_LEAGUES = ["Premier League", "La Liga", "Serie A", "Bundesliga", "Ligue 1", "Championship", "MLS"] as const;
export const CREATE_SEASONS = ["2025/26", "2025", "2024/25"] as const;
export const PLAYER_CREATE_DEFAULTS = { type: "knockout", league: "Premier League", season: "2025/26" } as const;

/** The prize of a competition created without one (the column default, public.default_prize()). */
export const DEFAULT_PRIZE = "Bragging Rights!";
