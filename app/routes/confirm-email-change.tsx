import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthForm, AuthPage } from "~/components/AuthPage";
import { FormError } from "~/components/Field";
import { ACCOUNT_MESSAGES } from "~/lib/account-settings-messages";
import { parseForm, readForm } from "~/lib/forms.server";
import { ConfirmEmailSchema } from "~/lib/validation";
import { sendEmailChangedNotice } from "~/mail.server";
import { confirmEmailChange, emailChangeTokenUsable } from "~/models/account-settings.server";

/**
 * The link mailed to a new address when a player changes their e-mail (/confirm-email-change?token=...; decision
 * 029). As /confirm-email (decision 004), opening it shows one button that confirms with a POST: mail scanners and
 * link previews open links before the player does and would spend the one-time token. Confirming changes the
 * account's address and tells the old one; it signs nobody in (the player's sessions go on as they were).
 */

export const meta: MetaFunction = () => [{ title: "Confirm your new email | FootyCoach" }];

// The token is in the address: never send it to other sites through Referer, nor keep the page in a cache
// ("same-origin", not "no-referrer", so the form's POST carries our Origin: see confirm-email.tsx).
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const usable = token !== null && (await emailChangeTokenUsable(context.db, token));
  // Only a usable token goes back into the page (a long or odd one is never echoed).
  return { token: usable ? token : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseForm(await readForm(request), ConfirmEmailSchema);
  const result = await confirmEmailChange(context.db, parsed.ok ? parsed.data.token : "", context.clientAddress);
  if (!result.ok) return data({ changed: false, message: result.message }, { status: result.throttled ? 429 : 400 });
  await sendEmailChangedNotice(context.env, context.db, result.oldEmail, result.newEmail);
  return data({ changed: true, message: null });
}

export default function ConfirmEmailChange() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();

  if (result?.changed) {
    return (
      <AuthPage title="Email changed">
        <p className="notice notice-success" role="status">
          {ACCOUNT_MESSAGES.emailChanged}
        </p>
        <p className="auth-links">
          <Link to="/profile">Go to your profile</Link>
        </p>
      </AuthPage>
    );
  }
  if (token && !result) {
    return (
      <AuthPage title="Confirm your new email">
        <p>Confirm this address as the new email of your FootyCoach account.</p>
        <AuthForm message={null} submitLabel="Confirm my new email" pendingLabel="Confirming...">
          <input type="hidden" name="token" value={token} />
        </AuthForm>
      </AuthPage>
    );
  }
  return (
    <AuthPage title="Confirm your new email">
      <FormError message={result?.message ?? ACCOUNT_MESSAGES.invalidChangeLink} />
      <p className="auth-links">
        <Link to="/profile">Go to your profile</Link>
      </p>
    </AuthPage>
  );
}
