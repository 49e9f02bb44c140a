import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Field, FormError } from "~/components/Field";
import { fieldErrors, ForgotPasswordSchema } from "~/lib/validation";
import { requestPasswordReset, RESET_TOKEN_TTL_MINUTES } from "~/models/account.server";
import { sendMail } from "~/mail.server";

export const meta: MetaFunction = () => [{ title: "Forgot password | FootyCoach" }];

const SENT = "A password reset link has been sent to your email.";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = ForgotPasswordSchema.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), message: null, sent: false }, { status: 400 });

  const result = await requestPasswordReset(context.db, parsed.data.email, context.clientAddress);
  if (result.throttled) {
    return data({ errors: {}, message: "Error: Too many attempts. Please wait 15 minutes and try again.", sent: false }, { status: 429 });
  }
  if (result.token) {
    const link = `${new URL(request.url).origin}/reset-password?token=${result.token}`;
    await sendMail(context.env, context.db, {
      to: parsed.data.email,
      subject: "Reset your FootyCoach password",
      text: `Someone asked to reset the password of your FootyCoach account.\n\nSet a new password here (valid for ${RESET_TOKEN_TTL_MINUTES} minutes, once):\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.`,
    });
  }
  // The same answer whether or not the address has an account.
  return data({ errors: {}, message: null, sent: true });
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <div className="auth-page">
      <main className="card auth-card" id="main">
        <h1>Forgot your password?</h1>
        {result?.sent ? (
          <p className="notice notice-success" role="status">
            {SENT}
          </p>
        ) : (
          <>
            <p>Enter your email and we will send you a link to set a new password.</p>
            <FormError message={result?.message} />
            <Form method="post" noValidate>
              <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
              <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
                {busy ? "Sending..." : "Send reset link"}
              </button>
            </Form>
          </>
        )}
        <p className="auth-links">
          <Link to="/login">Back to login</Link>
        </p>
      </main>
    </div>
  );
}
