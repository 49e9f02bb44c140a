import {
  data,
  type ActionFunctionArgs,
  type AppLoadContext,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthForm, AuthPage, EmailField } from "~/components/AuthPage";
import { FormError } from "~/components/Field";
import { intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { CONFIRMATION_RESENT, INVALID_CONFIRMATION_LINK, REFERRAL_AWARDED, SIGNUP_CONFIRMED } from "~/lib/account-messages";
import { ConfirmEmailSchema, ResendConfirmationSchema } from "~/lib/validation";
import { sendConfirmationMail } from "~/mail.server";
import { confirmationTokenUsable, confirmEmail, resendConfirmation } from "~/models/account.server";
import { startSession } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/**
 * The link of the confirmation e-mail (/confirm-email?token=...) and "send the link again".
 *
 * Opening the link shows one button that confirms (a POST), rather than confirming on the GET itself: mail
 * scanners and link previews open links before the player does and would spend the one-time token (and take
 * the session), and a GET that signs in could be used to sign a visitor into someone else's account from any
 * site (a POST is checked for our Origin). Confirming signs the player in and sends them to profile setup
 * (decision 004).
 */

export const meta: MetaFunction = () => [{ title: "Confirm your email | FootyCoach" }];

// The token is in the address: never send it to other sites through Referer, nor keep the page in a cache.
// "same-origin" rather than "no-referrer": under no-referrer a browser posts this page's form with "Origin: null",
// which the cross-site check refuses, so the button would not work without JavaScript.
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const usable = token !== null && (await confirmationTokenUsable(context.db, token));
  // Only a usable token goes back into the page (a long or odd one is never echoed).
  return { token: usable ? token : null, linkGiven: token !== null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "confirm":
      return confirm(request, context, form);
    case "resend":
      return resend(request, context, form);
    default:
      return unknownIntent();
  }
}

async function confirm(request: Request, context: AppLoadContext, form: FormData) {
  const parsed = parseForm(form, ConfirmEmailSchema);
  const token = parsed.ok ? parsed.data.token : "";
  const result = await confirmEmail(context.db, token, context.clientAddress);
  if (!result.ok) return invalid({}, result.message, result.throttled ? 429 : 400, { intent: "confirm" as const, sent: false });
  const session = await startSession(request, context.env, context.db, result.userId);
  return redirectWithToast(
    context.env,
    "/setup-profile",
    { type: "success", message: result.referralAwarded ? REFERRAL_AWARDED : SIGNUP_CONFIRMED },
    { headers: { "Set-Cookie": session } },
  );
}

async function resend(request: Request, context: AppLoadContext, form: FormData) {
  const parsed = parseForm(form, ResendConfirmationSchema);
  if (!parsed.ok) return invalid(parsed.errors, null, 400, { intent: "resend" as const, sent: false });
  const result = await resendConfirmation(context.db, parsed.data.email, context.clientAddress);
  if (result.throttled) {
    return invalid({}, "Too many attempts. Please wait 15 minutes and try again.", 429, { intent: "resend" as const, sent: false });
  }
  if (result.token) await sendConfirmationMail(context.env, context.db, new URL(request.url).origin, parsed.data.email, result.token);
  return data({ intent: "resend" as const, sent: true, errors: {}, message: null });
}

export default function ConfirmEmail() {
  const { token, linkGiven } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as
    { intent: string; sent: boolean; errors: Record<string, string>; message: string | null } | undefined;

  if (result?.intent === "resend" && result.sent) {
    return (
      <AuthPage title="Check your email">
        <p className="notice notice-success" role="status">
          {CONFIRMATION_RESENT}
        </p>
        <p className="auth-links">
          <Link to="/login">Back to login</Link>
        </p>
      </AuthPage>
    );
  }

  if (token && !(result?.intent === "confirm")) {
    return (
      <AuthPage title="Confirm your email">
        <p>Confirm your email address to finish signing up to FootyCoach.</p>
        <AuthForm message={null} submitLabel="Confirm my email" pendingLabel="Confirming...">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={token} />
        </AuthForm>
      </AuthPage>
    );
  }

  // No usable link (used, expired, mistyped) or none at all: ask for a new one.
  const linkMessage = result?.intent === "confirm" ? result.message : linkGiven ? INVALID_CONFIRMATION_LINK : null;
  const errors: Record<string, string | undefined> = result?.intent === "resend" ? result.errors : {};
  return (
    <AuthPage title="Confirm your email">
      <FormError message={linkMessage} />
      <p>Enter your email and we will send you a new confirmation link.</p>
      <AuthForm
        message={result?.intent === "resend" ? result.message : null}
        submitLabel="Resend confirmation email"
        pendingLabel="Sending..."
      >
        <input type="hidden" name="intent" value="resend" />
        <EmailField error={errors.email} />
      </AuthForm>
      <p className="auth-links">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthPage>
  );
}
