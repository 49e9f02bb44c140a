import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { AuthForm, AuthPage, EmailField, NewPasswordField } from "~/components/AuthPage";
import { Field } from "~/components/Field";
import { REFERRAL_CODE_MAX, referralCodeCharacters } from "~/lib/account-fields";
import { CHECK_EMAIL } from "~/lib/account-messages";
import { invalid, parseForm, readForm } from "~/lib/forms.server";
import { SignupSchema } from "~/lib/validation";
import { sendConfirmationMail } from "~/mail.server";
import { createAccount } from "~/models/account.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Sign up | FootyCoach" }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(form, SignupSchema);
  if (!parsed.ok) return invalid(parsed.errors);

  const { email, password, referralCode } = parsed.data;
  const typed = form.get("referralCode");
  if (!referralCode && typeof typed === "string" && typed.trim()) {
    // A mistyped code never blocks the sign-up (rules file, Referrals): it is only logged, by its length.
    console.warn(`sign-up without its referral code: not 1 to 8 letters and digits (${typed.length} characters typed)`);
  }
  const created = await createAccount(context.db, email, password, referralCode, context.clientAddress);
  if (!created.ok) return data({ errors: {}, message: created.message }, { status: created.throttled ? 429 : 409 });

  // No session yet: the account logs in (and a referral code counts) once the mailed link is opened (decision 004).
  await sendConfirmationMail(context.env, context.db, new URL(request.url).origin, email, created.token);
  return redirectWithToast(context.env, "/login", { type: "success", message: CHECK_EMAIL });
}

/** The code of a shared link (/signup?ref=CODE), upper-cased; anything that is not a code is left out. */
function referralFromLink(ref: string | null): string {
  const code = (ref ?? "").trim().toUpperCase();
  return new RegExp(`^[A-Z0-9]{1,${REFERRAL_CODE_MAX}}$`).test(code) ? code : "";
}

export default function Signup() {
  const result = useActionData<typeof action>() as { errors: Record<string, string>; message: string | null } | undefined;
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
          // Room for a code pasted with separators ("ABCD-EFGH"); the letters and digits are kept, at most 8.
          maxLength={2 * REFERRAL_CODE_MAX}
          autoCapitalize="characters"
          defaultValue={referralFromLink(params.get("ref"))}
          onInput={(e) => {
            e.currentTarget.value = referralCodeCharacters(e.currentTarget.value).slice(0, REFERRAL_CODE_MAX);
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
