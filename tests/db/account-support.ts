/**
 * Arranging a player with something of everything the rules file lists under "Your account and your data", beside
 * another player who shares their competitions, for the download and deletion tests (account-data.test.ts,
 * account-deletion-walk.test.ts). Match days 1 and 2 of a league of its own are played (deadlines passed), 3 and 4
 * are ahead; the knockout and the season are under way (registration closed), the third competition is still open.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  addMember,
  addPick,
  createCompetition,
  createLeague,
  createPlayer,
  createScoutCompetition,
  uniqueTag,
  type Player,
  type Sql,
} from "../support/factories";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const PASSWORD = "old-secret-1";

export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** A session of the player as login makes it; returns who the account model acts for. */
export async function sessionOf(sql: Sql, userId: string) {
  const id = sha256(randomBytes(32).toString("base64url"));
  await sql`insert into account.sessions (id, user_id, expires_at) values (${id}, ${userId}, now() + interval '30 days')`;
  return { id: userId, sessionId: id };
}

export interface Arranged {
  league: string;
  /** The player whose data it is: display name set, sessions, everything below. */
  me: Player & { displayName: string };
  /** Another player in the same competitions, with picks of their own. */
  other: Player;
  /** A friend the player referred, and the player who referred them. */
  friend: Player;
  referrer: Player;
  knockout: string;
  season: string;
  open: string;
  /** A private competition the player created (still open). */
  created: string;
  scout: string;
  teams: { past: string; plan: string };
}

export async function arrangeEverything(sql: Sql): Promise<Arranged> {
  const tag = uniqueTag();
  const league = `Acct League ${tag}`;
  // Match days a week apart: 1 and 2 kicked off 10 and 3 days ago, 3 starts in 4 days, 4 in 11.
  const fixtures = await createLeague(sql, {
    league,
    matchDays: 4,
    firstKickoff: new Date(Date.now() - 10 * DAY),
    pairs: [
      ["Acct Lions", "Acct Tigers"],
      ["Acct Bears", "Acct Wolves"],
    ],
  });
  const referrer = await createPlayer(sql, { password: PASSWORD });
  const meBase = await createPlayer(sql, { password: PASSWORD, username: `me${tag}` });
  const displayName = `Shown ${tag}`;
  await sql`update public.profiles set display_name = ${displayName}, referred_by = ${referrer.id},
                   analytics_consent = true, analytics_consent_at = now(), notifications_enabled = true,
                   fcm_token = ${`fcm-${tag}`}, fcm_token_updated_at = now()
             where id = ${meBase.id}`;
  const me = { ...meBase, displayName };
  const other = await createPlayer(sql, { password: PASSWORD });
  const friend = await createPlayer(sql, { password: PASSWORD });
  await sql`insert into public.referrals (referrer_id, referred_id) values (${referrer.id}, ${me.id}), (${me.id}, ${friend.id})`;
  await sql`insert into public.tickets (user_id, ticket_type) values (${me.id}, 'referral')`;

  const knockout = (await createCompetition(sql, { league, type: "knockout", currentMatchDay: 3, registrationStatus: "closed" })).id;
  const season = (await createCompetition(sql, { league, type: "season", currentMatchDay: 3, registrationStatus: "closed" })).id;
  const open = (await createCompetition(sql, { league, type: "season", startMatchDay: 3, registrationStatus: "open" })).id;
  const created = (
    await createCompetition(sql, {
      league,
      type: "knockout",
      startMatchDay: 4,
      visibility: "private",
      createdBy: me.id,
      name: `Mine ${tag}`,
    })
  ).id;
  for (const id of [knockout, season, open, created]) {
    await addMember(sql, id, me.id, { matchDay: id === knockout || id === season ? 1 : undefined });
    await addMember(sql, id, other.id, { matchDay: id === knockout || id === season ? 1 : undefined });
  }
  const teams = { past: "Acct Lions", plan: "Acct Bears" };
  // Past picks (deadline passed) and plans (match days 3 and 4), for both players.
  await addPick(sql, { userId: me.id, competitionId: knockout, matchDay: 1, team: teams.past });
  await addPick(sql, { userId: other.id, competitionId: knockout, matchDay: 1, team: "Acct Wolves" });
  await addPick(sql, { userId: me.id, competitionId: season, matchDay: 2, team: teams.past });
  await addPick(sql, { userId: other.id, competitionId: season, matchDay: 2, team: "Acct Tigers" });
  await addPick(sql, { userId: me.id, competitionId: knockout, matchDay: 3, team: teams.plan });
  await addPick(sql, { userId: me.id, competitionId: open, matchDay: 3, team: teams.plan });
  await addPick(sql, { userId: other.id, competitionId: knockout, matchDay: 3, team: "Acct Tigers" });

  // Scout: an entry of match day 2 (locked) and one of match day 3 (not yet), each predicting its match day.
  const scout = (await createScoutCompetition(sql, { league, currentMatchDay: 3 })).id;
  for (const [userId, matchDay] of [
    [me.id, 2],
    [me.id, 3],
    [other.id, 2],
  ] as const) {
    const [entry] = await sql<{ id: string }[]>`
      insert into public.scout_entries (competition_id, user_id, match_day, entry_index, total_points)
      values (${scout}, ${userId}, ${matchDay}, 0, ${matchDay === 2 ? 3 : 0}) returning id`;
    for (const f of fixtures.filter((x) => x.match_day === matchDay)) {
      await sql`insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
                values (${entry.id}, ${f.id}, 2, 1)`;
    }
  }
  await sql`select private.refresh_scout_season_totals(${league}, '2025/26', array[${me.id}, ${other.id}]::uuid[])`;

  await sql`insert into public.notices (user_id, kind, body) values (${me.id}, 'result_correction', 'A notice for me'),
                                                                    (${other.id}, 'result_correction', 'A notice for the other')`;
  await sql`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
            values (${me.id}, 'webpush', ${`https://updates.push.services.mozilla.com/wpush/v2/${tag}`}, 'p256dh-key', 'auth-secret')`;
  await sql`insert into public.reminder_log (user_id, competition_id, match_day, kind) values (${me.id}, ${knockout}, 3, '6h')`;
  await sql`insert into account.password_reset_tokens (token_hash, user_id, expires_at)
            values (${sha256(`reset-${tag}`)}, ${me.id}, now() + interval '1 hour')`;
  await sql`insert into account.auth_attempts (key, kind, success) values (${`login:email:${me.email}`}, 'login', false)`;
  await sql`insert into account.mail_outbox (to_email, subject, body_text) values (${me.email}, 'Hello', 'A mail to me')`;
  return { league, me, other, friend, referrer, knockout, season, open, created, scout, teams };
}
