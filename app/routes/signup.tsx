import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { AuthForm, AuthPage, EmailField, NewPasswordField } from "~/components/AuthPage";
import { Field } from "~/components/Field";
import { invalid, parseForm, readForm } from "~/lib/forms.server";
import { SignupSchema } from "~/lib/validation";
import { createAccount } from "~/models/account.server";
import { startSession } from "~/session.server";
import { toastCookie } from "~/toast.server";

const REFERRAL_AWARDED = "Signup successful! Your referrer has been awarded a bonus ticket.";

export const meta: MetaFunction = () => [{ title: "Sign up | FootyCoach" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(await readForm(request), SignupSchema);
  if (!parsed.ok) return invalid(parsed.errors);

  const { email, password, referralCode } = parsed.data;
  const created = await createAccount(context.db, email, password, referralCode);
  if (!created.ok) return data({ errors: {}, message: created.message }, { status: 409 });

  // No e-mail confirmation step exists (decision 004): the new player is signed in and goes on to set up a profile.
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(request, context.env, context.db, created.userId));
  headers.append(
    "Set-Cookie",
    await toastCookie(context.env, {
      type: "success",
      message: created.referralAwarded ? REFERRAL_AWARDED : "Signup successful! Let's set up your profile.",
    }),
  );
  return redirect("/setup-profile", { headers });
}

/** The code of a shared link (/signup?ref=CODE), upper-cased; anything that is not a code is left out. */
function referralFromLink(ref: string | null): string {
  const code = (ref ?? "").trim().toUpperCase();
  return /^[A-Z0-9]{1,8}$/.test(code) ? code : "";
}

export default function Signup() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <AuthPage title="Create your FootyCoach account">
      <AuthForm message={result?.message} submitLabel="Sign Up" pendingLabel="Signing up...">
        <EmailField error={errors.email} />
        <NewPasswordField label="Password" hint="At least 6 characters." error={errors.password} />
        <Field
          label="Referral code (optional)"
          name="referralCode"
          maxLength={8}
          autoCapitalize="characters"
          defaultValue={referralFromLink(params.get("ref"))}
          onInput={(e) => {
            e.currentTarget.value = e.currentTarget.value.toUpperCase();
          }}
          error={errors.referralCode}
        />
      </AuthForm>
      <p className="auth-links">
        Already have an account? <Link to="/login">Log in</Link>
      </p>
      <p className="hint">
        By signing up you confirm you are 18 or over and accept the <Link to="/terms">Terms and Conditions</Link> and{" "}
        <Link to="/privacy">Privacy and Cookies Policy</Link>.
      </p>
    </AuthPage>
  );
}
