import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { ProfileSetupForm } from "~/components/ProfileSetupForm";
import { PushSetup } from "~/components/PushSetup";
import { pushConfig } from "~/env.server";
import { getPushState } from "~/models/push.server";
import { requireUserWith } from "~/session.server";

/** Session pages: guarded on the server (no flash of content before the check) and wrapped in the shell. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The push state (permission prompt, subscription refresh) travels with the session check: no extra round trip.
  const { user, data: push } = await requireUserWith(request, context, (userId) => getPushState(context.db, userId));
  return {
    user: { id: user.id, email: user.email, username: user.username, role: user.role },
    push: { ...push, config: pushConfig(context.env) },
  };
}

// Pages a player without a username may still open (everything else shows the profile step first).
const OPEN_WITHOUT_PROFILE = ["/profile"];

export default function AppLayout() {
  const { user, push } = useLoaderData<typeof loader>();
  const location = useLocation();
  const needsProfile = !user.username && !OPEN_WITHOUT_PROFILE.includes(location.pathname);
  return (
    <AppShell user={user}>
      {needsProfile ? (
        <div className="container narrow">
          <ProfileSetupForm inline firstTime redirectTo={location.pathname + location.search} />
        </div>
      ) : (
        <Outlet />
      )}
      {user.username ? <PushSetup state={push} /> : null}
    </AppShell>
  );
}
