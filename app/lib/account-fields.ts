/** Password length limits shared by the pages (input hints) and the server schema (no zod here: it stays out of the browser bundle). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** A referral code as stored and compared: 1 to 8 upper-case letters and digits (profiles hold 8). */
export const REFERRAL_CODE_MAX = 8;

/** What was typed into the referral code field with everything but letters and digits left out, upper-cased. */
export function referralCodeCharacters(typed: string): string {
  return typed.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

/**
 * The referral code a sign-up carries: a code typed with a dash, a space or in lower case ("ab-12345") is read
 * as its letters and digits ("AB12345"); what is still no code (nothing left, too long) is null. Never an error:
 * an unknown or mistyped code must not block the sign-up (rules file, Referrals).
 */
export function normaliseReferralCode(typed: string | null | undefined): string | null {
  // Longer than any code with separators could be: not worth reading.
  if (!typed || typed.length > 64) return null;
  const code = referralCodeCharacters(typed);
  return code.length >= 1 && code.length <= REFERRAL_CODE_MAX ? code : null;
}
