import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthForm, AuthPage, NewPasswordField } from "~/components/AuthPage";
import { FormError } from "~/components/Field";
import { invalid, parseForm, readForm } from "~/lib/forms.server";
import { ResetPasswordSchema } from "~/lib/validation";
import { resetPassword, resetTokenUsable } from "~/models/account.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Reset password | FootyCoach" }];

// The token is in the address: never leak it to other sites through Referer.
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

const INVALID_LINK = "This reset link is invalid or has expired.";

/** A link without a usable token says so on arrival, instead of after the new password was typed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: await resetTokenUsable(context.db, token) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(await readForm(request), ResetPasswordSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.errors.token ? `Reset failed: ${parsed.errors.token}` : null);
  const result = await resetPassword(context.db, parsed.data.token, parsed.data.password, context.clientAddress);
  if (!result.ok) return data({ errors: {}, message: `Reset failed: ${result.message}` }, { status: result.throttled ? 429 : 400 });
  return redirectWithToast(context.env, "/login", { type: "success", message: "Password updated. Please log in." });
}

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as { errors: Record<string, string>; message: string | null } | undefined;
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  if (!usable && !result) {
    return (
      <AuthPage title="Set a new password">
        <FormError message={INVALID_LINK} />
        <p className="auth-links">
          <Link to="/forgot-password">Forgot Password</Link>
          <Link to="/login">Back to login</Link>
        </p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title="Set a new password">
      <AuthForm message={result?.message} submitLabel="Set New Password" pendingLabel="Saving...">
        <input type="hidden" name="token" value={token} />
        <NewPasswordField label="New password" error={errors.password} />
      </AuthForm>
      <p className="auth-links">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthPage>
  );
}
