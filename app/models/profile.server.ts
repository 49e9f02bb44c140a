import type { Db } from "~/db/types";
import { DISPLAY_NAME_TAKEN, USERNAME_TAKEN } from "~/lib/profile-fields";
import type { ProfileInput } from "~/lib/validation";

interface Profile {
  username: string;
  dateOfBirth: string;
  gender: string;
  genderSelfDescribe: string | null;
  timeZone: string | null;
  notificationsEnabled: boolean;
  analyticsConsent: boolean | null;
  referralCode: string;
  /** Shown on Scout leaderboards instead of the username when set. */
  displayName: string | null;
}

/** The player's own profile (RLS: a player reads only their own private fields); null when none yet. */
export async function getOwnProfile(db: Db, userId: string): Promise<Profile | null> {
  return db.asUser(userId, async (tx) => {
    const [row] = await tx<Profile[]>`
      select username, to_char(date_of_birth, 'YYYY-MM-DD') as "dateOfBirth", gender,
             gender_self_describe as "genderSelfDescribe", time_zone as "timeZone",
             notifications_enabled as "notificationsEnabled", analytics_consent as "analyticsConsent",
             referral_code as "referralCode", display_name as "displayName"
        from public.profiles where id = ${userId}`;
    return row ?? null;
  });
}

type SaveProfileResult =
  { ok: true } | { ok: false; field: "username" | "displayName" | "dateOfBirth"; message: string; status: 400 | 409 };

/** The constraints that refuse a name, and the form field each one is about (migration 20261125130300). */
const TAKEN: Record<string, { field: "username" | "displayName"; message: string }> = {
  profiles_username_taken: { field: "username", message: USERNAME_TAKEN },
  // One username against another answers from the older unique index, before the name trigger runs.
  profiles_username_lower_key: { field: "username", message: USERNAME_TAKEN },
  profiles_display_name_taken: { field: "displayName", message: DISPLAY_NAME_TAKEN },
};

/**
 * Creates or updates the player's profile; the email is copied from the account by the database, never the form.
 * The write runs under a savepoint: when the database refuses it (a name taken, under 18), the request's
 * transaction is rolled back to before the write and stays usable, so the page's loaders can still read and show
 * the form with its message (a plain form post renders the page in the same request).
 */
export async function saveProfile(db: Db, userId: string, input: ProfileInput): Promise<SaveProfileResult> {
  try {
    await db.asUser(userId, async (tx) => {
      await tx`savepoint profile_save`;
      try {
        await tx`
          insert into public.profiles (id, username, date_of_birth, gender, gender_self_describe, time_zone, display_name)
          values (${userId}, ${input.username}, ${input.dateOfBirth}, ${input.gender}, ${input.genderSelfDescribe}, ${input.timeZone},
                  ${input.displayName})
          on conflict (id) do update set
            username = excluded.username, date_of_birth = excluded.date_of_birth, gender = excluded.gender,
            gender_self_describe = excluded.gender_self_describe, time_zone = excluded.time_zone,
            display_name = excluded.display_name`;
      } catch (error) {
        await tx`rollback to savepoint profile_save`;
        throw error;
      }
    });
    return { ok: true };
  } catch (error) {
    const { code, constraint_name } = error as { code?: string; constraint_name?: string };
    const taken = code === "23505" && constraint_name ? TAKEN[constraint_name] : undefined;
    if (taken) return { ok: false, ...taken, status: 409 };
    // The 18+ rule's one home is the profiles trigger (the player's calendar day in their zone): its message
    // is the form's message.
    if (code === "23514" && constraint_name === "profiles_minimum_age") {
      return { ok: false, field: "dateOfBirth", message: (error as Error).message, status: 400 };
    }
    throw error;
  }
}

export async function saveConsent(db: Db, userId: string, granted: boolean): Promise<void> {
  await db.asUser(
    userId,
    (tx) => tx`
    update public.profiles set analytics_consent = ${granted}, analytics_consent_at = public.app_now() where id = ${userId}`,
  );
}

export async function saveNotifications(db: Db, userId: string, enabled: boolean): Promise<void> {
  await db.asUser(userId, (tx) => tx`update public.profiles set notifications_enabled = ${enabled} where id = ${userId}`);
}
