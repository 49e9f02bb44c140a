/** Profile field constants shared by pages and the server schema (no zod here: it stays out of the browser bundle). */
export const SELF_DESCRIBE_MAX = 50;
/** Display name: the name Scout leaderboards show instead of the username (profiles_display_name_length). */
export const DISPLAY_NAME_MAX = 40;

/**
 * A name another account holds as its username or display name (compared case-insensitively after trimming;
 * rules file, Accounts). The spec has no wording for a taken name; the database raises the same texts.
 */
export const USERNAME_TAKEN = "Username is already taken.";
export const DISPLAY_NAME_TAKEN = "Display name is already taken.";

export const GENDERS = [
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
  { value: "nonbinary", label: "Non-binary" },
  { value: "self-describe", label: "Prefer to self-describe" },
  { value: "prefer-not-to-say", label: "Prefer not to say" },
] as const;
