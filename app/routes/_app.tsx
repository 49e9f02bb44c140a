import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { ProfileSetupForm } from "~/components/ProfileSetupForm";
import { PushSetup } from "~/components/PushSetup";
import { pushConfig } from "~/env.server";
import { unreadNoticeCount } from "~/models/notices.server";
import { getPushState } from "~/models/push.server";
import { requireUserWith } from "~/session.server";

/** Session pages: guarded on the server (no flash of content before the check) and wrapped in the shell. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The push state (permission prompt, subscription refresh) and the unread notices travel with the session check:
  // both statements are sent in this tick, so they share its round trip (decision 012).
  const { user, data } = await requireUserWith(request, context, (userId) =>
    Promise.all([getPushState(context.db, userId), unreadNoticeCount(context.db, userId)]),
  );
  const [push, unreadNotices] = data;
  return {
    user: { id: user.id, email: user.email, username: user.username, role: user.role },
    push: { ...push, config: pushConfig(context.env) },
    unreadNotices,
  };
}

// Pages a player without a username may still open (everything else shows the profile step first).
const OPEN_WITHOUT_PROFILE = ["/profile"];

export default function AppLayout() {
  const { user, push, unreadNotices } = useLoaderData<typeof loader>();
  const location = useLocation();
  const needsProfile = !user.username && !OPEN_WITHOUT_PROFILE.includes(location.pathname);
  return (
    <AppShell user={user} unreadNotices={unreadNotices}>
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
