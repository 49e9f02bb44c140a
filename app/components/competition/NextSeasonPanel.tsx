import { Form, Link } from "@remix-run/react";
import { usePending } from "~/components/usePending";
import type { StartDay } from "~/lib/history";

interface Props {
  /** The match days the next season may start on (those still open for selection). */
  startDays: StartDay[];
  /** The refusal of the last "Start next season", if any. */
  error: string | null;
}

/**
 * "Start next season" (decision 030), for the creator of an ended private competition: the same competition (name,
 * type, league, rules) on a coming match day, with a new registration key; the last season's players are invited
 * with a notice and a one-tap Join, and nobody is joined without their tap.
 */
export function NextSeasonPanel({ startDays, error }: Props) {
  const starting = usePending("next-season");
  const season = startDays[0]?.season ?? "";
  return (
    <section className="card next-season-panel" aria-labelledby="next-season-heading">
      <h2 id="next-season-heading">Next season</h2>
      <p>
        Start this competition again on a coming match day: the same name and rules, a new registration key. Everyone who played this season
        gets a notice with a one-tap Join.
      </p>
      {startDays.length === 0 ? (
        <p className="empty-state">There is no coming match day to start on yet. Come back when the next fixtures are out.</p>
      ) : (
        <Form method="post" className="next-season-form">
          <input type="hidden" name="intent" value="next-season" />
          <input type="hidden" name="season" value={season} />
          <div className="field">
            <label htmlFor="next-season-start">Start Match Day ({season})</label>
            <select id="next-season-start" name="startMatchDay" defaultValue={String(startDays[0].matchDay)}>
              {startDays.map((d) => (
                <option key={d.matchDay} value={d.matchDay}>
                  Match Day {d.matchDay} (deadline {d.deadlineText})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-primary" disabled={starting}>
            {starting ? "Starting..." : "Start next season"}
          </button>
        </Form>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** Where an ended competition's story goes on: a link to its next season. */
export function NextSeasonLink({ next }: { next: { id: string; name: string } }) {
  return (
    <p className="next-season-link">
      The next season has started: <Link to={`/competition/${next.id}`}>{next.name}</Link>
    </p>
  );
}

/**
 * The one-tap Join of a next season (public.join_next_season: no key to type), posted to the competition's page
 * (so it works from /notices too, and from there opens the competition joined).
 */
export function JoinNextSeason({ competitionId }: { competitionId: string }) {
  const joining = usePending("join-next-season");
  return (
    <Form method="post" action={`/competition/${competitionId}`}>
      <input type="hidden" name="intent" value="join-next-season" />
      <button type="submit" className="btn btn-primary" disabled={joining}>
        {joining ? "Joining..." : "Join"}
      </button>
    </Form>
  );
}

/** The competition page's invitation, for a player of the last season who has not joined yet. */
export function NextSeasonInvite({ competitionId, name }: { competitionId: string; name: string }) {
  return (
    <section className="card next-season-invite" aria-labelledby="invite-heading">
      <h2 id="invite-heading">You played last season</h2>
      <p>{name} has started again. Join with one tap: no registration key needed.</p>
      <JoinNextSeason competitionId={competitionId} />
    </section>
  );
}
