/** Privacy and Cookies Policy: a public static page. */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { LegalPage, legalPageMeta } from "~/components/LegalPage";

const TITLE = "Privacy and Cookies Policy";

export const meta: MetaFunction = () =>
  legalPageMeta(TITLE, "What personal data FootyCoach keeps, why, for how long, and how cookies and analytics are used.");

export default function PrivacyRoute() {
  return (
    <LegalPage
      title={TITLE}
      lead={
        <>
          This policy explains what data FootyCoach keeps about you, why we keep it, and the cookies we use. We keep only what we need to
          run the game, keep accounts secure and, if you allow it, understand how the app is used. We do not sell your data. See also our{" "}
          <Link to="/terms">Terms and Conditions</Link>.
        </>
      }
    >
      <section aria-labelledby="privacy-account">
        <h2 id="privacy-account">Your account</h2>
        <ul>
          <li>
            <strong>Email address</strong>: to sign you in, and to send account emails such as password reset links.
          </li>
          <li>
            <strong>Password</strong>: we never store your password itself, only a one-way bcrypt hash of it, which cannot be turned back
            into the password.
          </li>
          <li>
            <strong>Sessions</strong>: a record of each signed-in session so you stay signed in, and so a session can be ended when you log
            out.
          </li>
          <li>
            <strong>Password reset tokens</strong>: a single-use token that expires, kept only until it is used or runs out.
          </li>
          <li>
            <strong>Sign-in attempt counters</strong>: counts of recent sign-in and password reset attempts, kept for security, to slow down
            anyone trying to guess passwords.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-profile">
        <h2 id="privacy-profile">Your profile</h2>
        <ul>
          <li>
            <strong>Username</strong>: shown to other players on leaderboards and in competitions.
          </li>
          <li>
            <strong>Date of birth</strong>: to verify that you are 18 or over. It is not shown to other players.
          </li>
          <li>
            <strong>Gender</strong>: as you describe it, including &quot;Prefer not to say&quot;. It is not shown to other players.
          </li>
          <li>
            <strong>Time zone</strong>: to show kickoff times and deadlines in your local time.
          </li>
          <li>
            <strong>Referral code</strong>: your personal code, so friends who sign up with it earn you referral tickets, and a record of
            who referred whom so each referral is rewarded only once.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-game">
        <h2 id="privacy-game">Game data</h2>
        <p>
          To run the games we keep your competition memberships (including private competitions you create), your team selections (picks)
          for each match day, your Scout tickets, entries and score predictions, and the points, standings and results that follow from
          them. Other players in a competition can see your username, standing and picks once the selection deadline has passed.
        </p>
      </section>

      <section aria-labelledby="privacy-push">
        <h2 id="privacy-push">Notifications</h2>
        <p>
          If you turn notifications on, we keep your browser&apos;s push subscription or push token so we can remind you before a selection
          deadline when you have not yet made your pick. It is removed when the push service reports it as gone (for example, after you
          uninstall the browser or revoke permission) or when you turn notifications off. We also keep a record of reminders sent so you are
          not sent the same reminder twice.
        </p>
      </section>

      <section aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies">Cookies</h2>
        <h3>Essential cookies</h3>
        <p>These are needed for FootyCoach to work and are always on:</p>
        <ul>
          <li>
            <strong>Session cookie</strong>: keeps you signed in. It is secure, cannot be read by scripts, and ends when you log out or it
            expires.
          </li>
          <li>
            <strong>Flash message cookie</strong>: carries a one-time message (such as &quot;Successfully joined competition!&quot;) to the
            next page, then is cleared.
          </li>
        </ul>
        <p>
          We also store a few settings in your browser (not cookies), such as your analytics choice and whether the sidebar is collapsed.
        </p>

        <h3>Analytics cookies</h3>
        <p>
          Analytics cookies help us understand which pages are used so we can improve FootyCoach.{" "}
          <strong>We only use analytics with your consent.</strong> Until you choose Accept, the analytics script is not loaded at all. When
          analytics is on, your IP address is anonymised, and we record page views and a few game events (such as registering for a
          competition), not what you type.
        </p>
        <p>
          We keep your <strong>analytics consent choice and the time you made it</strong> with your account, so your choice follows you
          across devices. You can change your choice at any time in Settings; if you decline after accepting, analytics stops and its
          cookies are removed.
        </p>
      </section>

      <section aria-labelledby="privacy-keeping">
        <h2 id="privacy-keeping">How long we keep data and your rights</h2>
        <ul>
          <li>
            Account, profile and game data are kept while you have an account. Security records (sessions, reset tokens, attempt counters)
            are kept only as long as they are needed.
          </li>
          <li>
            You can see and change your profile in Settings. Under Account on your Profile you can change your password and email, sign out
            everywhere else, download everything we keep about you (one JSON file, machine-readable), and delete your account.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-deletion">
        <h2 id="privacy-deletion">What is kept after you delete your account</h2>
        <p>
          Deleting your account takes effect at once. Your email address, password, sessions, push subscriptions, consent choice, referral
          code, notices, plans (picks for match days that have not closed yet), unlocked Scout entries, date of birth, gender and display
          name are deleted, and you leave the competitions that are still open for registration. Your email address can sign up again as a
          new account, and your username is free for anyone.
        </p>
        <p>
          Your picks and Scout entries for match days whose deadline has passed are kept, shown under &quot;Deleted player&quot; and a short
          tag (for example &quot;Deleted player 7F3K&quot;), never under your name. We keep them because they are part of other
          players&apos; past tables: removing them would change who was knocked out, the standings and the Scout leaderboards that other
          players played for. Nothing in them identifies you. Competitions you created go on for their other players, run by our admins.
        </p>
      </section>

      <section aria-labelledby="privacy-contact">
        <h2 id="privacy-contact">Contact</h2>
        <p>For any question about your data or this policy, contact FootyCoach support, Monday to Friday, 9:00 to 17:00 GMT.</p>
      </section>
    </LegalPage>
  );
}
