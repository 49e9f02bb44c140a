import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { Field, FormError } from "~/components/Field";
import { fieldErrors, SignupSchema } from "~/lib/validation";
import { createAccount } from "~/models/account.server";
import { startSession } from "~/session.server";
import { toastCookie } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Sign up | FootyCoach" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = SignupSchema.safeParse({
    email: form.get("email") ?? "",
    password: form.get("password") ?? "",
    referralCode: form.get("referralCode") ?? "",
  });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), message: null }, { status: 400 });

  const { email, password, referralCode } = parsed.data;
  const created = await createAccount(context.db, email, password, referralCode);
  if (!created.ok) return data({ errors: {}, message: created.message }, { status: 409 });

  // No e-mail confirmation step exists (decision 004): the new player is signed in and goes on to set up a profile.
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(request, context.env, context.db, created.userId));
  headers.append("Set-Cookie", await toastCookie(context.env, { type: "success", message: "Signup successful! Let's set up your profile." }));
  return redirect("/setup-profile", { headers });
}

export default function Signup() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <div className="auth-page">
      <main className="card auth-card" id="main">
        <h1>Create your FootyCoach account</h1>
        <FormError message={result?.message} />
        <Form method="post" noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={6}
            maxLength={128}
            hint="At least 6 characters."
            error={errors.password}
          />
          <Field
            label="Referral code (optional)"
            name="referralCode"
            maxLength={8}
            autoCapitalize="characters"
            defaultValue={(params.get("ref") ?? "").toUpperCase().slice(0, 8)}
            onInput={(e) => {
              e.currentTarget.value = e.currentTarget.value.toUpperCase();
            }}
            error={errors.referralCode}
          />
          <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
            {busy ? "Signing up..." : "Sign Up"}
          </button>
        </Form>
        <p className="auth-links">
          Already have an account? <Link to="/login">Log in</Link>
        </p>
        <p className="hint">
          By signing up you confirm you are 18 or over and accept the <Link to="/terms">Terms and Conditions</Link> and{" "}
          <Link to="/privacy">Privacy and Cookies Policy</Link>.
        </p>
      </main>
    </div>
  );
}
