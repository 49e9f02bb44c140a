import { PickedTeam } from "~/components/Badges";
import type { KnockoutRoute } from "~/lib/live";

/**
 * A knockout player's route: teams used and teams still available. Chosen with a plain GET form among the players
 * of the page shown (works without JavaScript); SQL hides what the caller may not see.
 */
export function KnockoutRouteView({
  route,
  routeOf,
  players,
  me,
  page,
}: {
  route: KnockoutRoute;
  routeOf: string;
  players: { userId: string; username: string }[];
  me: string;
  page: number;
}) {
  if (route.used.length === 0 && route.available.length === 0) return null;
  const name = players.find((p) => p.userId === routeOf)?.username;
  return (
    <section className="card leaderboard-section" aria-labelledby="route-heading" id="route" data-testid="route">
      <h2 id="route-heading">Route: {routeOf === me ? "you" : (name ?? "player")}</h2>
      <form method="get" action="#route" className="route-form">
        <input type="hidden" name="page" value={page} />
        <label htmlFor="route-player">Player</label>{" "}
        <select id="route-player" name="route" defaultValue={routeOf}>
          {players.map((p) => (
            <option key={p.userId} value={p.userId}>
              {p.username}
              {p.userId === me ? " (you)" : ""}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="btn btn-secondary">
          Show route
        </button>
      </form>
      <h3>Teams used</h3>
      {route.used.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul aria-label="Teams used">
          {route.used.map((u) => (
            <li key={`${u.matchDay}-${u.team}`}>
              Match Day {u.matchDay}: <PickedTeam team={u.team} autoPicked={u.autoPicked} />
            </li>
          ))}
        </ul>
      )}
      {route.available.length > 0 ? (
        <>
          <h3>Still available</h3>
          <p data-testid="route-available">{route.available.join(", ")}</p>
        </>
      ) : null}
    </section>
  );
}
