import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { ProfileSetupForm } from "~/components/ProfileSetupForm";
import { PushSetup } from "~/components/PushSetup";
import { pushConfig } from "~/env.server";
import { unreadNoticeCount } from "~/models/notices.server";
import { getPushState } from "~/models/push.server";
import { newestPublishedNoteKey } from "~/models/release-notes.server";
import { readSeenNoteKey, unseenNoteKey } from "~/lib/whats-new.server";
import { requireUserWith } from "~/session.server";

/** Session pages: guarded on the server (no flash of content before the check) and wrapped in the shell. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The push state (permission prompt, subscription refresh), the unread notices and the newest published release
  // note travel with the session check: the statements are sent in this tick, so they share its round trip
  // (decision 012). Whether the player has seen that note is in a cookie (no statement).
  const { user, data } = await requireUserWith(request, context, (userId) =>
    Promise.all([getPushState(context.db, userId), unreadNoticeCount(context.db, userId), newestPublishedNoteKey(context.db, userId)]),
  );
  const [push, unreadNotices, newestNote] = data;
  const whatsNew = unseenNoteKey(newestNote, await readSeenNoteKey(request, context.env, user.id));
  return {
    user: { id: user.id, email: user.email, username: user.username, role: user.role },
    push: { ...push, config: pushConfig(context.env) },
    unreadNotices,
    whatsNew,
  };
}

// Pages a player without a username may still open (everything else shows the profile step first).
const OPEN_WITHOUT_PROFILE = ["/profile"];

export default function AppLayout() {
  const { user, push, unreadNotices, whatsNew } = useLoaderData<typeof loader>();
  const location = useLocation();
  const needsProfile = !user.username && !OPEN_WITHOUT_PROFILE.includes(location.pathname);
  return (
    <AppShell user={user} unreadNotices={unreadNotices} whatsNew={whatsNew}>
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
