import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { Field, FormError } from "~/components/Field";
import { fieldErrors, LoginSchema } from "~/lib/validation";
import { verifyLogin } from "~/models/account.server";
import { safeRedirect, startSession } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Log in | FootyCoach" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = LoginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), message: null }, { status: 400 });

  const result = await verifyLogin(context.db, parsed.data.email, parsed.data.password, context.clientAddress);
  if (!result.ok) return data({ errors: {}, message: result.message }, { status: result.throttled ? 429 : 401 });

  const cookie = await startSession(request, context.env, context.db, result.userId);
  const back = safeRedirect(form.get("redirectTo"), "/");
  const to = result.username ? back : `/setup-profile${back !== "/" ? `?redirectTo=${encodeURIComponent(back)}` : ""}`;
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}

export default function Login() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <div className="auth-page">
      <main className="card auth-card" id="main">
        <h1>Log in to FootyCoach</h1>
        <FormError message={result?.message} />
        <Form method="post" noValidate>
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
          <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
            {busy ? "Logging in..." : "Log In"}
          </button>
        </Form>
        <p className="auth-links">
          <Link to="/forgot-password">Forgot Password</Link>
        </p>
        <p className="auth-links">
          Don&apos;t have an account? <Link to="/signup">Sign up</Link>
        </p>
      </main>
    </div>
  );
}
