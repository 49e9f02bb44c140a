import type { Env } from "./env.server";
import type { Db } from "./db/types";
import { CONFIRM_TOKEN_TTL_HOURS } from "./models/account.server";

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing mail. Locally ("outbox") it lands in account.mail_outbox and the console, readable at
 * /dev/outbox; in production it goes to the provider configured by secrets.
 */
export async function sendMail(env: Env, db: Db, mail: Mail): Promise<void> {
  if (env.MAIL_PROVIDER === "outbox") {
    await db.serviceStatement(
      (sql) => sql`insert into account.mail_outbox (to_email, subject, body_text, created_at)
                   values (${mail.to}, ${mail.subject}, ${mail.text}, ${db.now.toISOString()})`,
    );
    console.log(`[outbox] to=${mail.to} subject=${mail.subject}\n${mail.text}`);
    return;
  }
  const response = await fetch("https://api.resend.com/emails", {
    method: "POST",
    headers: { Authorization: `Bearer ${env.MAIL_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text }),
  });
  if (!response.ok) throw new Error(`mail provider answered ${response.status}`);
}

/**
 * Mails the confirmation link of a sign-up or a resend (the token in the link; its hash is in the database). A
 * failure to send is logged without the link and not thrown: the account is saved either way and the player can
 * ask for a new link from the login page, and the answer to a resend must not differ between addresses that
 * have an account waiting and addresses that do not.
 */
export async function sendConfirmationMail(env: Env, db: Db, origin: string, to: string, token: string): Promise<void> {
  const link = `${origin}/confirm-email?token=${token}`;
  try {
    await sendMail(env, db, {
      to,
      subject: "Confirm your FootyCoach account",
      text: `Welcome to FootyCoach!\n\nConfirm your email address to finish signing up (the link works once, for ${CONFIRM_TOKEN_TTL_HOURS} hours):\n${link}\n\nIf you did not sign up for FootyCoach, ignore this email: the account stays unconfirmed and cannot be used.`,
    });
  } catch (error) {
    console.error("confirmation mail not sent:", (error as Error)?.message ?? error);
  }
}

/**
 * The mails of a change of e-mail (decision 029): the link to the new address, or, when that address already has an
 * account, a note to it that nothing changed (the player who asked sees the same answer either way). Sent after the
 * request's COMMIT; a failure is logged (never the link) and not thrown, like the confirmation mail.
 */
export async function sendEmailChangeMail(env: Env, db: Db, origin: string, to: string, token: string | null): Promise<void> {
  const text = token
    ? `Someone asked to use this address for their FootyCoach account.\n\nConfirm it here (the link works once, for ${CONFIRM_TOKEN_TTL_HOURS} hours):\n${origin}/confirm-email-change?token=${token}\n\nIf it was not you, ignore this email: nothing changes.`
    : `Someone asked to use this address for their FootyCoach account, but it already belongs to a FootyCoach account, so nothing changed.\n\nIf it was you, log in with this address instead. If it was not, ignore this email.`;
  try {
    await sendMail(env, db, { to, subject: "Confirm your new FootyCoach email", text });
  } catch (error) {
    console.error("email change mail not sent:", (error as Error)?.message ?? error);
  }
}

/** Tells the old address that the account's e-mail is now another one (rules file: "the old address is told"). */
export async function sendEmailChangedNotice(env: Env, db: Db, to: string, newEmail: string): Promise<void> {
  try {
    await sendMail(env, db, {
      to,
      subject: "Your FootyCoach email was changed",
      text: `The email address of your FootyCoach account was changed to ${newEmail}. From now on, log in with that address.\n\nIf you did not ask for this, someone knows your password: contact FootyCoach support straight away.`,
    });
  } catch (error) {
    console.error("email changed notice not sent:", (error as Error)?.message ?? error);
  }
}

export async function readOutbox(db: Db, limit = 50) {
  return db.serviceStatement(
    (sql) => sql<{ id: string; to_email: string; subject: string; body_text: string; created_at: Date }[]>`
      select id::text, to_email, subject, body_text, created_at from account.mail_outbox order by id desc limit ${limit}`,
  );
}

export interface OutboxPush {
  id: string;
  username: string;
  title: string;
  body: string;
  link: string;
  state: string;
  created_at: Date;
}

/**
 * The development push outbox: reminder pushes the scheduler Worker kept instead of sending
 * (PUSH_PROVIDER=outbox), with whom they were for, newest first.
 */
export async function readPushOutbox(db: Db, limit = 50) {
  return db.serviceStatement(
    (sql) => sql<OutboxPush[]>`
      select d.id::text, p.username, d.title, d.body, d.link, d.state, d.created_at
        from private.push_deliveries d
        join public.profiles p on p.id = d.user_id
       where d.provider = 'outbox'
       order by d.id desc
       limit ${limit}`,
  );
}
