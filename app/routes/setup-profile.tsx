import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ProfileSetupForm } from "~/components/ProfileSetupForm";
import { commitOrRefuse, readForm, parseForm } from "~/lib/forms.server";
import { profileSchema } from "~/lib/validation";
import { getOwnProfile, saveProfile } from "~/models/profile.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { requireUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Profile Setup | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const profile = await getOwnProfile(context.db, user.id);
  return { profile, continueTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const parsed = parseForm(form, profileSchema());
  const inline = form.get("inline") === "1";
  if (!parsed.ok) return data({ saved: false, errors: parsed.errors, message: null }, { status: 400 });

  const saved = await saveProfile(context.db, user.id, parsed.data).catch((error) => {
    if (error instanceof Response) throw error;
    console.error("profile save failed", error);
    return { ok: false as const, field: null, message: "Failed to update profile. Please try again.", status: 500 };
  });
  if (!saved.ok) {
    const errors = saved.field ? { [saved.field]: saved.message } : {};
    return data({ saved: false, errors, message: saved.field ? null : saved.message }, { status: saved.status });
  }
  const failed = await commitOrRefuse(context.db, "Failed to update profile. Please try again.", { saved: false });
  if (failed) return failed;
  if (inline) {
    return redirectWithToast(context.env, safeRedirect(form.get("redirectTo"), "/dashboard"), {
      type: "success",
      message: "Profile saved.",
    });
  }
  return data({ saved: true, errors: {}, message: null });
}

export default function SetupProfile() {
  const { profile, continueTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as { saved: boolean; errors: Record<string, string>; message: string | null } | undefined;

  if (result?.saved) {
    return (
      <div className="auth-page">
        <main className="card auth-card" id="main" aria-live="polite">
          <h1>Profile Complete!</h1>
          <p>Your profile has been saved and you are all set.</p>
          <Link className="btn btn-primary btn-block" to={continueTo}>
            Continue to Dashboard
          </Link>
        </main>
      </div>
    );
  }
  return (
    <div className="auth-page">
      <main id="main" className="auth-card-wide">
        <ProfileSetupForm defaults={profile} errors={result?.errors} message={result?.message} firstTime={!profile?.username} />
      </main>
    </div>
  );
}
