/** Password length limits shared by the pages (input hints) and the server schema (no zod here: it stays out of the browser bundle). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
