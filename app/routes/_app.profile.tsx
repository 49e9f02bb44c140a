import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { NotificationsToggle } from "~/components/NotificationsToggle";
import type { loader as appLoader } from "~/routes/_app";
import { disableNotifications } from "~/models/push.server";
import { useAnalyticsConsent } from "~/components/ConsentBanner";
import { GENDERS } from "~/lib/profile-fields";
import { getOwnProfile, saveNotifications } from "~/models/profile.server";
import { intentOf, readForm, unknownIntent } from "~/lib/forms.server";
import { requireUser, requireUserWith } from "~/session.server";
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
  if (intentOf(form) !== "notifications") return unknownIntent();
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

function genderLabel(gender: string, selfDescribe: string | null) {
  if (gender === "self-describe") return selfDescribe ?? "";
  return GENDERS.find((g) => g.value === gender)?.label ?? gender;
}

export default function ProfilePage() {
  const { profile, email, referrals, origin } = useLoaderData<typeof loader>();
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
