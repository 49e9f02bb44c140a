import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { ProfileSetupForm } from "~/components/ProfileSetupForm";
import { fieldErrors, profileSchema, todayIn } from "~/lib/validation";
import { getOwnProfile, saveProfile } from "~/models/profile.server";
import { requireUser, safeRedirect } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Profile Setup | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const profile = await getOwnProfile(context.db, user.id);
  return { profile };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const timeZone = String(form.get("timeZone") ?? "");
  const parsed = profileSchema(todayIn(context.now, timeZone)).safeParse({
    username: form.get("username") ?? "",
    dateOfBirth: form.get("dateOfBirth") ?? "",
    gender: form.get("gender") ?? undefined,
    genderSelfDescribe: form.get("genderSelfDescribe") ?? undefined,
    timeZone,
  });
  const inline = form.get("inline") === "1";
  if (!parsed.success) return data({ saved: false, errors: fieldErrors(parsed.error), message: null }, { status: 400 });

  const saved = await saveProfile(context.db, user.id, parsed.data).catch((error) => {
    console.error("profile save failed", error);
    return { ok: false as const, field: null, message: "Failed to update profile. Please try again." };
  });
  if (!saved.ok) {
    const errors = saved.field ? { [saved.field]: saved.message } : {};
    return data({ saved: false, errors, message: saved.field ? null : saved.message }, { status: saved.field ? 409 : 500 });
  }
  if (inline) {
    return redirectWithToast(context.env, safeRedirect(form.get("redirectTo"), "/dashboard"), { type: "success", message: "Profile saved." });
  }
  return data({ saved: true, errors: {}, message: null });
}

export default function SetupProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as { saved: boolean; errors: Record<string, string>; message: string | null } | undefined;
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo");

  if (result?.saved) {
    return (
      <div className="auth-page">
        <main className="card auth-card" id="main" aria-live="polite">
          <h1>Profile Complete!</h1>
          <p>Your profile has been saved and you are all set.</p>
          <Link className="btn btn-primary btn-block" to={redirectTo && redirectTo.startsWith("/") && !redirectTo.startsWith("//") ? redirectTo : "/"}>
            Continue to Dashboard
          </Link>
        </main>
      </div>
    );
  }
  return (
    <div className="auth-page">
      <main id="main" className="auth-card-wide">
        <ProfileSetupForm
          defaults={profile}
          errors={result?.errors}
          message={result?.message}
          firstTime={!profile?.username}
        />
      </main>
    </div>
  );
}
