import type { Db } from "~/db/types";

/** What /profile shows about referrals: friends referred and the player's unused referral tickets. */
export interface ReferralSummary {
  friendsReferred: number;
  referralTickets: number;
}

/**
 * The player's referral figures (row-level security: a player reads only their own referrals and tickets).
 * Referrals are awarded by public.handle_referral_signup at sign-up (app/models/account.server.ts).
 */
export async function getReferralSummary(db: Db, userId: string): Promise<ReferralSummary> {
  return db.asUser(userId, async (sql) => {
    const [row] = await sql<ReferralSummary[]>`
      select (select count(*)::int from public.referrals r where r.referrer_id = ${userId}) as "friendsReferred",
             (select count(*)::int from public.tickets t
               where t.user_id = ${userId} and t.ticket_type = 'referral' and not t.used) as "referralTickets"`;
    return row ?? { friendsReferred: 0, referralTickets: 0 };
  });
}
