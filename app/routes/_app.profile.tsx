import {
  data,
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AccountSection, type AccountAnswer } from "~/components/AccountSection";
import { NotificationsToggle } from "~/components/NotificationsToggle";
import type { loader as appLoader } from "~/routes/_app";
import { disableNotifications } from "~/models/push.server";
import { useAnalyticsConsent } from "~/components/ConsentBanner";
import { GENDERS } from "~/lib/profile-fields";
import { getOwnProfile, saveNotifications } from "~/models/profile.server";
import { intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { endSession, requireUser, requireUserWith } from "~/session.server";
import type { SessionUser } from "~/db/types";
import { ACCOUNT_MESSAGES } from "~/lib/account-settings-messages";
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema } from "~/lib/validation";
import { sendEmailChangeMail } from "~/mail.server";
import { changePassword, deleteAccount, requestEmailChange, signOutOthers, type AccountOutcome } from "~/models/account-settings.server";
import { redirectWithToast } from "~/toast.server";
import { dateFormat } from "~/lib/date-format";
import { ReferralPanel, referralSignupUrl } from "~/components/ReferralPanel";
import { getReferralSummary } from "~/models/referrals.server";

export const meta: MetaFunction = () => [{ title: "Profile | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, data } = await requireUserWith(request, context, (userId) =>
    Promise.all([getOwnProfile(context.db, userId), getReferralSummary(context.db, userId)]),
  );
  const [profile, referrals] = data;
  return { profile, email: user.email, referrals, origin: new URL(request.url).origin };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = intentOf(form);
  if (ACCOUNT_INTENTS.has(intent)) return accountAction(request, context, user, intent, form);
  if (intent !== "notifications") return unknownIntent();
  if (!user.username) return data({ message: "No profile found. Let's get you set up!" }, { status: 409 });
  const enabled = form.get("enabled") === "true";
  // Off removes every saved subscription and the FCM token too (no reminder can reach a player who said no).
  if (enabled) await saveNotifications(context.db, user.id, true);
  else await disableNotifications(context.db, user.id);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, "/profile", {
    type: "success",
    message: enabled ? "Notifications turned on." : "Notifications turned off.",
  });
}

const ACCOUNT_INTENTS = new Set(["change-password", "change-email", "sign-out-others", "delete-account"]);

/**
 * The Account section's actions (decision 029). They run on the server path (app/models/account-settings.server.ts),
 * one transaction each, after the session check's read transaction has ended: the embedded database runs one
 * transaction at a time. A refusal comes back to the form it concerns; a success redirects with its message.
 */
async function accountAction(request: Request, context: AppLoadContext, user: SessionUser, intent: string, form: FormData) {
  await context.db.commit();
  const { db, env, clientAddress } = context;
  const done = (message: string) => redirectWithToast(env, "/profile", { type: "success", message });
  switch (intent) {
    case "change-password": {
      const parsed = parseForm(form, ChangePasswordSchema);
      if (!parsed.ok) return invalid(parsed.errors, null, 400, { intent });
      const result = await changePassword(db, user, parsed.data.currentPassword, parsed.data.newPassword, clientAddress);
      return result.ok ? done(ACCOUNT_MESSAGES.passwordChanged) : refusal(request, context, intent, result);
    }
    case "change-email": {
      const parsed = parseForm(form, ChangeEmailSchema);
      if (!parsed.ok) return invalid(parsed.errors, null, 400, { intent });
      const { newEmail, password } = parsed.data;
      const result = await requestEmailChange(db, user, password, newEmail, clientAddress);
      if (!result.ok) return refusal(request, context, intent, result);
      // Mailed after the COMMIT: the link, or to a taken address a note that nothing changed; the same answer here.
      await sendEmailChangeMail(env, db, new URL(request.url).origin, newEmail, result.token);
      return done(ACCOUNT_MESSAGES.emailChangeSent(newEmail));
    }
    case "sign-out-others": {
      const result = await signOutOthers(db, user, clientAddress);
      return result.ok ? done(ACCOUNT_MESSAGES.signedOutOthers) : refusal(request, context, intent, result);
    }
    default: {
      const parsed = parseForm(form, DeleteAccountSchema);
      if (!parsed.ok) return invalid(parsed.errors, null, 400, { intent });
      const result = await deleteAccount(db, user, parsed.data.password, clientAddress);
      if (!result.ok) return refusal(request, context, intent, result);
      // The session is gone with the account; the cookie goes too.
      return redirectWithToast(
        env,
        "/login",
        { type: "success", message: ACCOUNT_MESSAGES.accountDeleted },
        { headers: { "Set-Cookie": await endSession(request, env, db) } },
      );
    }
  }
}

/** A refused account action: on its form (a field's message, or the form's), or signed out when the session ended meanwhile. */
async function refusal(request: Request, context: AppLoadContext, intent: string, result: AccountOutcome & { ok: false }) {
  if (result.signedOut) throw redirect("/login", { headers: { "Set-Cookie": await endSession(request, context.env, context.db) } });
  const errors: Record<string, string> = result.field ? { [result.field]: result.message } : {};
  return invalid(errors, result.field ? null : result.message, result.status, { intent });
}

function genderLabel(gender: string, selfDescribe: string | null) {
  if (gender === "self-describe") return selfDescribe ?? "";
  return GENDERS.find((g) => g.value === gender)?.label ?? gender;
}

export default function ProfilePage() {
  const { profile, email, referrals, origin } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as AccountAnswer | undefined;
  const push = useRouteLoaderData<typeof appLoader>("routes/_app")?.push;
  const { consent, setConsent } = useAnalyticsConsent();

  if (!profile) {
    return (
      <div className="container narrow">
        <header className="page-header">
          <h1>Profile</h1>
        </header>
        <div className="card empty-state">
          <p>No profile found. Let&apos;s get you set up!</p>
          <Link className="btn btn-primary" to="/setup-profile">
            Create Profile
          </Link>
        </div>
        <AccountSection answer={answer} />
      </div>
    );
  }

  const dob = dateFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" }).format(
    new Date(`${profile.dateOfBirth}T00:00:00Z`),
  );
  return (
    <div className="container narrow">
      <header className="page-header">
        <h1>Profile Settings</h1>
      </header>
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Your details</h2>
        <dl className="details">
          <dt>Username</dt>
          <dd>{profile.username}</dd>
          <dt>Display Name</dt>
          <dd>{profile.displayName ?? "Not set"}</dd>
          <dt>Email</dt>
          <dd>{email}</dd>
          <dt>Date of Birth</dt>
          <dd>{dob}</dd>
          <dt>Gender</dt>
          <dd>{genderLabel(profile.gender, profile.genderSelfDescribe)}</dd>
          <dt>Time Zone</dt>
          <dd>{profile.timeZone ?? "Not set"}</dd>
        </dl>
      </section>
      <ReferralPanel code={profile.referralCode} signupUrl={referralSignupUrl(origin, profile.referralCode)} {...referrals} />
      <section className="card" aria-labelledby="settings-heading">
        <h2 id="settings-heading">Settings</h2>
        <NotificationsToggle
          enabled={profile.notificationsEnabled}
          config={push?.config ?? { kind: "off" }}
          fcmToken={push?.fcmToken ?? null}
          fcmTokenUpdatedAt={push?.fcmTokenUpdatedAt ?? null}
        />
        <div className="setting-row">
          <span id="analytics-label">Analytics cookies</span>
          <button
            type="button"
            className="switch"
            role="switch"
            aria-checked={consent === "granted"}
            aria-labelledby="analytics-label"
            onClick={() => setConsent(consent === "granted" ? "denied" : "granted")}
          >
            {consent === "granted" ? "On" : "Off"}
          </button>
        </div>
      </section>
      <AccountSection answer={answer} />
      <div className="actions">
        <Link className="btn btn-primary" to="/setup-profile">
          Edit Profile
        </Link>
        <Link className="btn btn-secondary" to="/stats">
          Your stats
        </Link>
        <Link className="btn btn-secondary" to="/dashboard">
          Back to Dashboard
        </Link>
      </div>
    </div>
  );
}
