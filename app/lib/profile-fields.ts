/** Profile field constants shared by pages and the server schema (no zod here: it stays out of the browser bundle). */
export const SELF_DESCRIBE_MAX = 50;
/** Display name: the name Scout leaderboards show instead of the username (profiles_display_name_length). */
export const DISPLAY_NAME_MAX = 40;

export const GENDERS = [
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
  { value: "nonbinary", label: "Non-binary" },
  { value: "self-describe", label: "Prefer to self-describe" },
  { value: "prefer-not-to-say", label: "Prefer not to say" },
] as const;
