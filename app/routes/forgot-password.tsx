import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { AuthForm, AuthPage, EmailField } from "~/components/AuthPage";
import { parseForm, readForm } from "~/lib/forms.server";
import { ForgotPasswordSchema } from "~/lib/validation";
import { requestPasswordReset, RESET_TOKEN_TTL_MINUTES } from "~/models/account.server";
import { sendMail } from "~/mail.server";

export const meta: MetaFunction = () => [{ title: "Forgot password | FootyCoach" }];

const SENT = "A password reset link has been sent to your email.";

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(await readForm(request), ForgotPasswordSchema);
  if (!parsed.ok) return data({ errors: parsed.errors, message: null, sent: false }, { status: 400 });

  const result = await requestPasswordReset(context.db, parsed.data.email, context.clientAddress);
  if (result.throttled) {
    return data({ errors: {}, message: "Error: Too many attempts. Please wait 15 minutes and try again.", sent: false }, { status: 429 });
  }
  if (result.token) {
    const link = `${new URL(request.url).origin}/reset-password?token=${result.token}`;
    const sending = sendMail(context.env, context.db, {
      to: parsed.data.email,
      subject: "Reset your FootyCoach password",
      text: `Someone asked to reset the password of your FootyCoach account.\n\nSet a new password here (valid for ${RESET_TOKEN_TTL_MINUTES} minutes, once):\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.`,
    }).catch((error: unknown) => console.error("reset mail not sent:", (error as Error)?.message ?? error));
    // A real provider sends after the answer, so neither its failure nor its time tells whether the address has
    // an account. The development outbox is a local write that pages and tests read right after the answer.
    if (context.env.MAIL_PROVIDER === "outbox") await sending;
    else context.waitUntil(sending);
  }
  // The same answer whether or not the address has an account.
  return data({ errors: {}, message: null, sent: true });
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <AuthPage title="Forgot your password?">
      {result?.sent ? (
        <p className="notice notice-success" role="status">
          {SENT}
        </p>
      ) : (
        <>
          <p>Enter your email and we will send you a link to set a new password.</p>
          <AuthForm message={result?.message} submitLabel="Send reset link" pendingLabel="Sending...">
            <EmailField error={errors.email} />
          </AuthForm>
        </>
      )}
      <p className="auth-links">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthPage>
  );
}
