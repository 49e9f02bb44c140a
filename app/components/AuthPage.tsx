import type { ReactNode } from "react";
import { Form, Link } from "@remix-run/react";
import { Logo } from "~/components/Logo";
import { usePending } from "~/components/usePending";
import { Field, FormError } from "~/components/Field";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/account-fields";

/**
 * The pieces the signed-out account pages (log in, sign up, forgot and reset password) share, so they keep
 * one look and one way of posting. Each page's action still validates and words its own messages.
 */

/** The logo above a signed-out page's card, in a banner landmark; it links home (/ picks login or dashboard). */
export function AuthLogo() {
  return (
    <header className="auth-header">
      <Link to="/" className="auth-logo" aria-label="FootyCoach home">
        <Logo size={40} />
      </Link>
    </header>
  );
}

/** The centred card every signed-out account page is laid out in, under the logo. */
export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <AuthLogo />
      <main className="card auth-card" id="main">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

/**
 * The action's top message, then a plain POST form (works without JavaScript; noValidate so the server's
 * messages are the ones shown) ending in its submit button, disabled with a pending label while it submits.
 */
export function AuthForm({
  message,
  submitLabel,
  pendingLabel,
  children,
}: {
  message: string | null | undefined;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  const busy = usePending();
  return (
    <>
      <FormError message={message} />
      <Form method="post" noValidate>
        {children}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {busy ? pendingLabel : submitLabel}
        </button>
      </Form>
    </>
  );
}

/** The account email, as every account page asks for it. */
export function EmailField({ error }: { error: string | undefined }) {
  return <Field label="Email" name="email" type="email" autoComplete="email" required error={error} />;
}

/**
 * A password being chosen (signup, reset): the browser may suggest one, and the length limits are the
 * server's rule. Logging in is different (the current password, as it was set), so its field stays its own.
 */
export function NewPasswordField({ label, hint, error }: { label: string; hint?: ReactNode; error: string | undefined }) {
  return (
    <Field
      label={label}
      name="password"
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN}
      maxLength={PASSWORD_MAX}
      hint={hint}
      error={error}
    />
  );
}

/**
 * "Send the link again" for an account that has not opened its confirmation link, shown on /login next to
 * "Please confirm your email first." (only after the right password). It posts to /confirm-email, whose answer
 * is the same whether or not the address has an account waiting.
 */
export function ResendConfirmationForm({ email }: { email: string }) {
  const busy = usePending("resend");
  return (
    <Form method="post" action="/confirm-email" className="resend-confirmation">
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="email" value={email} />
      <button className="btn btn-secondary btn-block" type="submit" disabled={busy}>
        {busy ? "Sending..." : "Resend confirmation email"}
      </button>
    </Form>
  );
}
