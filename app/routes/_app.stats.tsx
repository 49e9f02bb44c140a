import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SeasonRecordChart, SeasonRecordTable } from "~/components/stats/SeasonRecordChart";
import { ordinal } from "~/lib/ordinal";
import { getPlayerStats } from "~/models/stats.server";
import { requireUserWith } from "~/session.server";

/**
 * Your stats (/stats, rules file "History and seasons"): over every competition the player is in, how many they
 * played and won, their best finish, their longest knockout run, their pick record (in total and per season, as a
 * chart drawn by the app with the same numbers in a table), the teams they picked most, and their Scout points and
 * exact scores. Every number comes from SQL (public.player_stats and friends) in the page's one round trip.
 */

export const meta: MetaFunction = () => [{ title: "Your stats | FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { data: stats } = await requireUserWith(request, context, (userId) => getPlayerStats(context.db, userId));
  return { stats };
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stat">
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value">{value}</dd>
    </div>
  );
}

const matchDays = (n: number) => `${n} match ${n === 1 ? "day" : "days"}`;
const pickCount = (n: number) => `${n} ${n === 1 ? "pick" : "picks"}`;

export default function StatsPage() {
  const { stats } = useLoaderData<typeof loader>();
  const { picks } = stats;
  return (
    <div className="container narrow stats-page">
      <header className="page-header">
        <h1>Your stats</h1>
      </header>

      {stats.played === 0 ? (
        <p className="empty-state">
          No competitions yet. <Link to="/competitions">Join a competition</Link> and your stats start here.
        </p>
      ) : null}

      <section className="card" aria-labelledby="stats-competitions">
        <h2 id="stats-competitions">Competitions</h2>
        <dl className="stat-grid">
          <Stat label="Played" value={stats.played} />
          <Stat label="Won" value={stats.won} />
          <Stat label="Best finish" value={stats.bestFinish === null ? "--" : ordinal(stats.bestFinish)} />
          <Stat label="Longest knockout run" value={stats.longestKnockoutRun === null ? "--" : matchDays(stats.longestKnockoutRun)} />
        </dl>
      </section>

      <section className="card" aria-labelledby="stats-picks">
        <h2 id="stats-picks">Pick record</h2>
        <dl className="stat-grid">
          <Stat label="Won" value={picks.won} />
          <Stat label="Drawn" value={picks.drawn} />
          <Stat label="Lost" value={picks.lost} />
        </dl>
        {stats.seasons.length > 0 ? (
          <>
            <h3>Per season</h3>
            <SeasonRecordChart seasons={stats.seasons} />
            <SeasonRecordTable seasons={stats.seasons} />
          </>
        ) : null}
      </section>

      <section className="card" aria-labelledby="stats-teams">
        <h2 id="stats-teams">Teams you picked most</h2>
        {stats.topTeams.length === 0 ? (
          <p className="empty-state">No picks yet whose deadline has passed.</p>
        ) : (
          <ol className="top-teams">
            {stats.topTeams.map((t) => (
              <li key={t.team}>
                <span className="top-team-name">{t.team}</span> <span className="top-team-picks">{pickCount(t.picks)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="card" aria-labelledby="stats-scout">
        <h2 id="stats-scout">Scout</h2>
        <dl className="stat-grid">
          <Stat label="Scout points" value={stats.scoutPoints} />
          <Stat label="Exact scores" value={stats.scoutExact} />
        </dl>
      </section>
    </div>
  );
}
