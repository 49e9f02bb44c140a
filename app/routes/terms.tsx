/** Terms and Conditions: a public static page. */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { HowToPlay } from "~/components/HowToPlay";
import { LegalPage, legalPageMeta } from "~/components/LegalPage";

const TITLE = "Terms and Conditions";

export const meta: MetaFunction = () =>
  legalPageMeta(TITLE, "The terms for playing FootyCoach: 18 or over only, fair play, support hours and liability.");

export default function TermsRoute() {
  return (
    <LegalPage
      title={TITLE}
      lead={
        <>
          These terms apply to everyone who creates a FootyCoach account or plays a FootyCoach game. By signing up or playing you agree to
          them. Please read them together with our <Link to="/privacy">Privacy and Cookies Policy</Link>.
        </>
      }
    >
      <section aria-labelledby="terms-age">
        <h2 id="terms-age">1. Who can play</h2>
        <ul>
          <li>
            <strong>Players must be 18 or over.</strong> We ask for your date of birth when you set up your profile to check this, and we
            may close any account held by someone under 18.
          </li>
          <li>One account per person. Accounts are personal and must not be shared, sold or transferred.</li>
          <li>
            Keep your password secret. You are responsible for what happens in your account; tell support at once if you think someone else
            has used it.
          </li>
          <li>The details you give us (email address, date of birth, username) must be true and your own.</li>
        </ul>
      </section>

      <section aria-labelledby="terms-games">
        <h2 id="terms-games">2. The games</h2>
        <ul>
          <HowToPlay variant="terms" />
          <li>
            Match results are the scores after 90 minutes (extra time and penalties are not counted).{" "}
            <strong>Results as entered by FootyCoach admins are final</strong> and all standings, eliminations and points are worked out
            from them. If a result is corrected, standings and points are recalculated.
          </li>
          <li>Postponed or abandoned fixtures are treated as described in the rules of each game.</li>
          <li>
            Competitions may be changed, suspended or cancelled, for example if fixtures are cancelled or rearranged, too few players join,
            or a technical problem makes fair play impossible.
          </li>
          <li>Prizes, if any, are described on the competition. Unless a competition says otherwise the prize is bragging rights.</li>
        </ul>
      </section>

      <section aria-labelledby="terms-fair">
        <h2 id="terms-fair">3. Fair play</h2>
        <ul>
          <li>
            Play fairly. Do not use more than one account, automated tools, or bugs in the service to gain an advantage, and do not try to
            see other players&apos; picks before they are revealed.
          </li>
          <li>Usernames and anything you share must not be offensive, misleading or impersonate someone else.</li>
          <li>
            We may remove entries, reset results or suspend or close accounts that break these terms. Where we can, we will tell you why.
          </li>
        </ul>
      </section>

      <section aria-labelledby="terms-private">
        <h2 id="terms-private">4. Private competitions and referrals</h2>
        <ul>
          <li>
            The creator of a private competition chooses who to share its registration key with and may manage selections in that
            competition. Every change a creator makes is recorded.
          </li>
          <li>
            Referral tickets are awarded once for each friend who signs up with your referral code. Referrals made with fake or duplicate
            accounts do not count.
          </li>
        </ul>
      </section>

      <section aria-labelledby="terms-support">
        <h2 id="terms-support">5. Support</h2>
        <p>
          Support hours: <strong>Monday to Friday, 9:00 to 17:00 GMT</strong>. Messages sent outside these hours are answered on the next
          working day.
        </p>
      </section>

      <section aria-labelledby="terms-liability">
        <h2 id="terms-liability">6. Our liability</h2>
        <ul>
          <li>
            We work hard to keep FootyCoach available and accurate, but we cannot promise the service will always be available or free of
            errors.
          </li>
          <li>
            <strong>Our liability is capped at the amount paid in the previous 12 months</strong>, that is, the total you paid FootyCoach in
            the 12 months before the event giving rise to the claim.
          </li>
          <li>Nothing in these terms limits any liability that cannot be limited by law.</li>
        </ul>
      </section>

      <section aria-labelledby="terms-changes">
        <h2 id="terms-changes">7. Changes and ending your account</h2>
        <ul>
          <li>
            We may update these terms. If a change matters to you we will tell you in the app before it applies; continuing to play after
            that means you accept the new terms.
          </li>
          <li>You can stop playing at any time and ask support to close your account.</li>
        </ul>
      </section>
    </LegalPage>
  );
}
