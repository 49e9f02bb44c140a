import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, FormError } from "~/components/Field";
import { usePending } from "~/components/usePending";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/account-fields";

/** What the profile's action answered to one of the Account section's forms (a refusal; successes redirect). */
export interface AccountAnswer {
  intent: string;
  errors: Record<string, string | undefined>;
  message: string | null;
}

/**
 * The Account section of /profile (rules file, "Your account and your data"; decision 029): plain POST forms that
 * work before JavaScript loads, each with its `intent`; the server decides everything (password, throttle, the word
 * DELETE) and a refusal comes back here, shown on the form it concerns.
 */
export function AccountSection({ answer }: { answer: AccountAnswer | undefined }) {
  const of = (intent: string) => (answer?.intent === intent ? answer : undefined);
  return (
    <section className="card account-section" aria-labelledby="account-section-heading">
      <h2 id="account-section-heading">Account</h2>

      <AccountForm
        intent="change-password"
        title="Change password"
        submit="Change Password"
        pending="Changing..."
        answer={of("change-password")}
      >
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={PASSWORD_MAX}
          error={of("change-password")?.errors.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint="At least 6 characters. Your other sessions will be signed out."
          error={of("change-password")?.errors.newPassword}
        />
      </AccountForm>

      <AccountForm intent="change-email" title="Change email" submit="Change Email" pending="Sending..." answer={of("change-email")}>
        <Field
          label="New email"
          name="newEmail"
          type="email"
          autoComplete="email"
          required
          hint="We send a link to the new address; your email changes when you open it."
          error={of("change-email")?.errors.newEmail}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={of("change-email")?.errors.password}
        />
      </AccountForm>

      <AccountForm
        intent="sign-out-others"
        title="Sessions"
        submit="Sign Out Everywhere Else"
        pending="Signing out..."
        answer={of("sign-out-others")}
      >
        <p className="hint">Ends every other session of your account (other browsers and devices). This one stays signed in.</p>
      </AccountForm>

      <div className="account-action">
        <h3>Your data</h3>
        <p className="hint">Everything FootyCoach keeps about you, as one JSON file.</p>
        <a className="btn btn-secondary" href="/profile/data" download="footycoach-data.json">
          Download My Data
        </a>
      </div>

      <AccountForm
        intent="delete-account"
        title="Delete account"
        submit="Delete My Account"
        pending="Deleting..."
        danger
        answer={of("delete-account")}
      >
        <p className="hint">
          Your email, password, settings, plans and notices are deleted and you leave competitions still open for registration. Your past
          picks stay in other players&apos; tables as &quot;Deleted player&quot; (see the{" "}
          <a href="/privacy#privacy-deletion">Privacy Policy</a>
          ). This cannot be undone.
        </p>
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={of("delete-account")?.errors.password}
        />
        <Field label="Type DELETE to confirm" name="confirm" autoComplete="off" required error={of("delete-account")?.errors.confirm} />
      </AccountForm>
    </section>
  );
}

function AccountForm({
  intent,
  title,
  submit,
  pending,
  danger = false,
  answer,
  children,
}: {
  intent: string;
  title: string;
  submit: string;
  pending: string;
  danger?: boolean;
  answer: AccountAnswer | undefined;
  children: ReactNode;
}) {
  const busy = usePending(intent);
  // Each form is named by its heading, so its message and fields read as one group.
  const headingId = `account-${intent}`;
  return (
    <div className="account-action">
      <h3 id={headingId}>{title}</h3>
      <Form method="post" noValidate aria-labelledby={headingId}>
        <input type="hidden" name="intent" value={intent} />
        <FormError message={answer?.message} />
        {children}
        <button className={`btn ${danger ? "btn-danger" : "btn-secondary"}`} type="submit" disabled={busy}>
          {busy ? pending : submit}
        </button>
      </Form>
    </div>
  );
}
