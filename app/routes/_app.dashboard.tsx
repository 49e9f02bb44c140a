import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import dashboardCss from "~/styles/pages/dashboard.css?url";
import { CreatePrivateCompetition } from "~/components/CreatePrivateCompetition";
import { PrivateCompetitions } from "~/components/dashboard/PrivateCompetitions";
import { RegisteredCompetitions } from "~/components/dashboard/RegisteredCompetitions";
import { UpcomingCompetitions } from "~/components/dashboard/UpcomingCompetitions";
import { getDashboard, playerStatus, selectionAction } from "~/models/dashboard.server";
import { requireUserWith } from "~/session.server";
import { safeTimeZone } from "~/lib/date-format";
import { todayIn } from "~/lib/validation";
import { DashboardLiveLines } from "~/components/LiveMatchDay";
import { useLive } from "~/lib/use-live";

export const meta: MetaFunction = () => [{ title: "Dashboard | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardCss }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const liveReadAt = Date.now(); // before the query: the live hello's catch-up (use-live.ts)
  const { user, data: dashboard } = await requireUserWith(request, context, (userId) => getDashboard(context.db, userId));
  return {
    ...dashboard,
    liveReadAt,
    registered: dashboard.registered.map((r) => ({
      ...r,
      action: selectionAction(r),
      status: playerStatus(r),
      // After the deadline an active member without a pick is told what that means (knockout: out).
      missedPick:
        !r.currentSelection &&
        r.selectionStatus === "closed" &&
        r.competitionStatus === "active" &&
        r.membershipStatus === "active" &&
        r.selectionDeadline !== null &&
        new Date(r.selectionDeadline).getTime() <= context.now.getTime(),
    })),
    now: context.now.toISOString(),
    today: todayIn(context.now, user.timeZone),
    timeZone: safeTimeZone(user.timeZone),
    competitionsUrl: `${new URL(request.url).origin}/competitions`,
  };
}

export default function DashboardPage() {
  const data = useLoaderData<typeof loader>();
  const registered = data.registered;
  // listens for the match days being played (decision 022): a change revalidates this page
  useLive(data.live, data.liveReadAt);
  const names = Object.fromEntries(registered.map((r) => [r.id, r.name]));
  return (
    <div className="container dashboard">
      <header className="page-header">
        <h1>Dashboard</h1>
      </header>

      <DashboardLiveLines lines={data.live} names={names} />
      <UpcomingCompetitions upcoming={data.upcoming} now={data.now} />
      <RegisteredCompetitions rows={registered} now={data.now} />
      <PrivateCompetitions
        competitions={data.privateCompetitions}
        competitionsUrl={data.competitionsUrl}
        createButton={
          // A new player's next step is Browse competitions (above): then creating one is the quieter action.
          <CreatePrivateCompetition
            choices={data.creationOptions}
            timeZone={data.timeZone}
            today={data.today}
            primary={registered.length > 0}
          />
        }
      />
    </div>
  );
}
