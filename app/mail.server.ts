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
