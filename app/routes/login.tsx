import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { AuthForm, AuthPage, EmailField, ResendConfirmationForm } from "~/components/AuthPage";
import { Field } from "~/components/Field";
import { invalid, parseForm, readForm } from "~/lib/forms.server";
import { LoginSchema } from "~/lib/validation";
import { verifyLogin } from "~/models/account.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { startSession } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Log in | FootyCoach" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(form, LoginSchema);
  if (!parsed.ok) return invalid(parsed.errors);

  const result = await verifyLogin(context.db, parsed.data.email, parsed.data.password, context.clientAddress);
  if (!result.ok && result.unconfirmed) {
    // The right password of an account whose link was not opened: the page offers to send the link again.
    return data({ errors: {}, message: result.message, resendTo: parsed.data.email }, { status: 403 });
  }
  if (!result.ok) return data({ errors: {}, message: result.message, resendTo: null }, { status: result.throttled ? 429 : 401 });

  const cookie = await startSession(request, context.env, context.db, result.userId);
  const back = safeRedirect(form.get("redirectTo"), "/");
  const to = result.username ? back : `/setup-profile${back !== "/" ? `?redirectTo=${encodeURIComponent(back)}` : ""}`;
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}

export default function Login() {
  const result = useActionData<typeof action>() as
    { errors?: Record<string, string>; message?: string | null; resendTo?: string | null } | undefined;
  const [params] = useSearchParams();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <AuthPage title="Log in to FootyCoach">
      <AuthForm message={result?.message} submitLabel="Log In" pendingLabel="Logging in...">
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <EmailField error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
      </AuthForm>
      {result?.resendTo ? <ResendConfirmationForm email={result.resendTo} /> : null}
      <p className="auth-links">
        <Link to="/forgot-password">Forgot Password</Link>
      </p>
      <p className="auth-links">
        Don&apos;t have an account? <Link to="/signup">Sign up</Link>
      </p>
    </AuthPage>
  );
}
