import type { ReactNode } from "react";
import { StatusBadge } from "~/components/Badges";
import { TeamBadge } from "~/components/TeamBadge";

interface FixtureItem {
  id: string;
  /** "15:00 GMT": the kickoff in the player's zone, named. */
  time: string;
  kickoffTime: string | null;
  /** False for a date without a time (decision 027): `time` says "Time TBC". */
  kickoffConfirmed?: boolean;
  homeTeam: string;
  awayTeam: string;
  homeScore: number | null;
  awayScore: number | null;
  status: string;
}

interface FixtureGroupItem {
  date: string;
  fixtures: FixtureItem[];
}

interface Props {
  groups: FixtureGroupItem[];
  /** Renders a team cell (e.g. a selection button); plain text by default. */
  renderTeam?: (team: string, side: "home" | "away", fixture: FixtureItem) => ReactNode;
  emptyText?: string;
}

/**
 * Fixtures grouped by kickoff date (labels formatted on the server in the player's zone): home, time or score,
 * away, each team with its club badge. The rows share one grid, so the times line up and rows are even.
 */
export function FixtureList({ groups, renderTeam, emptyText = "No fixtures available for this match day." }: Props) {
  if (groups.length === 0) return <p className="empty-state">{emptyText}</p>;
  const team = (name: string, side: "home" | "away", f: FixtureItem) =>
    renderTeam ? (
      renderTeam(name, side, f)
    ) : (
      <span className="team-name">
        <TeamBadge team={name} />
        <span>{name}</span>
      </span>
    );
  return (
    <div className={renderTeam ? "fixture-list" : "fixture-list is-plain"}>
      {groups.map((group) => (
        <section key={group.date} className="fixture-group" aria-label={group.date}>
          <h3 className="fixture-date">{group.date}</h3>
          <ul className="list-plain">
            {group.fixtures.map((f) => (
              <li key={f.id} className="fixture">
                <div className="home">{team(f.homeTeam, "home", f)}</div>
                <div className="score">
                  {f.status === "complete" && f.homeScore !== null ? (
                    <span>
                      {f.homeScore} - {f.awayScore}
                    </span>
                  ) : f.status === "postponed" ? (
                    <StatusBadge status="Postponed" />
                  ) : (
                    <time dateTime={(f.kickoffConfirmed === false ? f.kickoffTime?.slice(0, 10) : f.kickoffTime) ?? undefined}>
                      {f.time}
                    </time>
                  )}
                </div>
                <div className="away">{team(f.awayTeam, "away", f)}</div>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
