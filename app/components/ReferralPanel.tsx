import { CopyButton } from "~/components/CopyButton";
import { ShareButtons } from "~/components/InviteButtons";

interface Props {
  /** The player's referral code (8 upper-case letters and digits). */
  code: string;
  /** Absolute sign-up link with the code: /signup?ref=CODE. */
  signupUrl: string;
  friendsReferred: number;
  referralTickets: number;
}

/** The sign-up link a referral code shares. */
export function referralSignupUrl(origin: string, code: string): string {
  return `${origin}/signup?ref=${encodeURIComponent(code)}`;
}

/** /profile: the player's referral code with copy and share links, friends referred and unused referral tickets. */
export function ReferralPanel({ code, signupUrl, friendsReferred, referralTickets }: Props) {
  const text = `Join me on FootyCoach, the football prediction game! Sign up with my referral code ${code}: ${signupUrl}`;
  return (
    <section className="card referral-panel" aria-labelledby="referral-heading">
      <h2 id="referral-heading">Refer a friend</h2>
      <p className="hint">
        Every friend who signs up with your referral code earns you one referral ticket for The Scout. Referral tickets never expire and
        work on any Scout competition.
      </p>
      <div className="referral-code">
        <span>Your referral code</span>
        <code>{code}</code>
        <CopyButton text={code} label="Copy referral code" />
      </div>
      <div className="referral-link">
        <span>Sign-up link</span>
        <code className="referral-url">{signupUrl}</code>
        <CopyButton text={signupUrl} label="Copy sign-up link" />
      </div>
      <ShareButtons
        text={text}
        url={signupUrl}
        subject="Join me on FootyCoach"
        labelFor={(network) => `Share your referral code by ${network}`}
      />
      <dl className="details referral-stats">
        <dt>Friends referred</dt>
        <dd data-testid="friends-referred">{friendsReferred}</dd>
        <dt>Referral tickets</dt>
        <dd data-testid="referral-tickets">{referralTickets}</dd>
      </dl>
    </section>
  );
}
