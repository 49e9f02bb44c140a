/** Filter and creation vocabularies of the competition lists (spec part 1 §2, §5, §9); shared by server and client. */

export const TYPE_OPTIONS = [
  { value: "knockout", label: "Knockout" },
  { value: "season", label: "Season" },
] as const;
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

export function typeLabel(type: string): string {
  return type === "season" ? "Season" : type === "knockout" ? "Knockout" : type === "scout" ? "Scout" : type;
}
