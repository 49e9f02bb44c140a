import { z } from "zod";

/** Shared by the pages (for hints) and the server (which decides). One home for each input rule. */

import { DISPLAY_NAME_MAX, SELF_DESCRIBE_MAX } from "./profile-fields";
import { normaliseReferralCode, PASSWORD_MAX, PASSWORD_MIN } from "./account-fields";
import { dateFormat, safeTimeZone } from "./date-format";
import { ACCOUNT_MESSAGES } from "./account-settings-messages";

const email = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, "Email is required.")
  .max(254, "Email is too long.")
  .email("Please enter a valid email address.")
  .transform((v) => v.toLowerCase());

const password = z
  .string({ error: "Password is required." })
  .min(1, "Password is required.")
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long.`);

export const LoginSchema = z.object({ email, password });

const newPassword = password.refine((v) => v.length >= PASSWORD_MIN, {
  message: "Password must be at least 6 characters long.",
});

export const SignupSchema = z.object({
  email,
  password: newPassword,
  // Never refused: normalised, or left out when it is no code (the sign-up action logs that).
  referralCode: z
    .string()
    .optional()
    .transform((v) => normaliseReferralCode(v)),
});

export const ForgotPasswordSchema = z.object({ email });

/** Asking for a new confirmation link: the e-mail only (the answer is the same whether it has an account). */
export const ResendConfirmationSchema = z.object({ email });

/** The token of a confirmation link, posted back by its page's button; confirmEmail decides whether it works. */
export const ConfirmEmailSchema = z.object({ token: z.string().default("") });

/** The Account section of /profile (decision 029): each password-checked action names its password field. */
export const ChangePasswordSchema = z.object({ currentPassword: password, newPassword });

export const ChangeEmailSchema = z.object({ newEmail: email, password });

/** Deleting the account: the password and the typed word DELETE (exactly, around spaces aside). */
export const DeleteAccountSchema = z.object({
  password,
  confirm: z
    .string({ error: ACCOUNT_MESSAGES.typeDelete })
    .trim()
    .refine((v) => v === "DELETE", ACCOUNT_MESSAGES.typeDelete),
});

export const ResetPasswordSchema = z.object({
  token: z.string({ error: "This reset link is invalid or has expired." }).min(20, "This reset link is invalid or has expired.").max(200),
  password: newPassword,
});

/**
 * A real calendar date written YYYY-MM-DD, years 1900 to 9999: 2027-02-30, 2027-13-45 and 0000-01-01 are
 * not dates (JavaScript's Date would shift the first to March and Postgres would refuse the others with a 500).
 */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const COMPETITION_REQUIRED = "Please fill in all required fields.";
const START_DATE_PAST = "Start date must be today or a future date.";
const START_DATE_INVALID = "Please enter a valid start date.";

/** A competition's start date (private and admin creation): a real date, today or later in the creator's zone. */
export function startDateField(today: string) {
  return z
    .string({ error: COMPETITION_REQUIRED })
    .trim()
    .min(1, COMPETITION_REQUIRED)
    .refine(isCalendarDate, START_DATE_INVALID)
    .refine((d) => d >= today, START_DATE_PAST);
}

/** "Today" as YYYY-MM-DD in the player's time zone (UTC when unknown), as the creation forms show it. */
export function todayIn(now: Date, timeZone: string | null | undefined): string {
  return dateFormat("en-CA", { timeZone: safeTimeZone(timeZone), year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/**
 * Profile form. The 18+ rule is not here: it has one home, the profiles trigger (the player's calendar day in
 * their zone), whose refusal saveProfile turns into this form's date-of-birth error.
 */
export function profileSchema() {
  return z
    .object({
      username: z
        .string({ error: "Please enter a username." })
        .trim()
        .min(1, "Please enter a username.")
        .min(3, "Username must be at least 3 characters.")
        .max(30, "Username must be at most 30 characters.")
        .regex(/^[A-Za-z0-9_.-]+$/, "Username may contain letters, digits, dots, dashes and underscores."),
      dateOfBirth: z
        .string({ error: "Please enter your date of birth." })
        .trim()
        .min(1, "Please enter your date of birth.")
        .refine(isCalendarDate, "Please enter a valid date of birth."),
      gender: z.enum(["male", "female", "nonbinary", "self-describe", "prefer-not-to-say"], {
        error: "Please select your gender.",
      }),
      genderSelfDescribe: z.string().trim().max(SELF_DESCRIBE_MAX, `Please use at most ${SELF_DESCRIBE_MAX} characters.`).optional(),
      // Optional; blank = none (the username is shown). Trimmed, 1 to 40 characters, no control characters.
      displayName: z
        .string()
        .trim()
        .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters.`)
        .regex(/^[^\p{Cc}]*$/u, "Display name may not contain control characters.")
        .optional()
        .transform((v) => v || null),
      timeZone: z
        .string()
        .trim()
        .max(64)
        .optional()
        .transform((v) => safeTimeZone(v)),
    })
    .superRefine((v, ctx) => {
      if (v.gender === "self-describe" && !v.genderSelfDescribe) {
        ctx.addIssue({ code: "custom", path: ["genderSelfDescribe"], message: "Please describe your gender." });
      }
    })
    .transform((v) => ({ ...v, genderSelfDescribe: v.gender === "self-describe" ? v.genderSelfDescribe! : null }));
}

export type ProfileInput = z.output<ReturnType<typeof profileSchema>>;

/** Field errors as { field: firstMessage } for forms. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
