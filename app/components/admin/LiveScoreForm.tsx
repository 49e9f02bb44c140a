import { Form } from "@remix-run/react";
import type { AdminFixture } from "~/models/admin-results.server";
import { usePending } from "~/components/usePending";

/**
 * "Live score" for a pending fixture (decision 022): a running score and its state (in play, half-time), saved
 * without completing the match; Clear removes it. Final results still come only from Save (complete).
 */
export function LiveScoreForm({ fixture: f, here, action }: { fixture: AdminFixture; here: string; action: string }) {
  const saving = usePending("live-score", { name: "fixtureId", value: f.id });
  const id = `live-${f.id}`;
  return (
    <Form method="post" action={action} className="admin-live-form inline-form" aria-label={`Live score ${f.homeTeam} v ${f.awayTeam}`}>
      <input type="hidden" name="intent" value="live-score" />
      <input type="hidden" name="fixtureId" value={f.id} />
      <input type="hidden" name="returnTo" value={here} />
      <fieldset>
        <legend>Live score</legend>
        <label htmlFor={`${id}-home`} className="visually-hidden">
          {f.homeTeam} live goals
        </label>
        <input
          id={`${id}-home`}
          name="homeScore"
          type="number"
          min={0}
          max={30}
          inputMode="numeric"
          className="score-input"
          defaultValue={f.live?.home ?? 0}
          key={`lh-${f.live?.home}`}
        />
        <span aria-hidden="true">–</span>
        <label htmlFor={`${id}-away`} className="visually-hidden">
          {f.awayTeam} live goals
        </label>
        <input
          id={`${id}-away`}
          name="awayScore"
          type="number"
          min={0}
          max={30}
          inputMode="numeric"
          className="score-input"
          defaultValue={f.live?.away ?? 0}
          key={`la-${f.live?.away}`}
        />
        <label htmlFor={`${id}-state`} className="visually-hidden">
          State
        </label>
        <select id={`${id}-state`} name="liveStatus" defaultValue={f.live?.status ?? "IN_PLAY"} key={`ls-${f.live?.status}`}>
          <option value="IN_PLAY">In play</option>
          <option value="PAUSED">Half-time</option>
        </select>
        <button
          type="submit"
          className="btn btn-secondary btn-sm"
          disabled={saving}
          aria-label={`Update live score ${f.homeTeam} v ${f.awayTeam}`}
        >
          {saving ? "Saving..." : "Update live score"}
        </button>
      </fieldset>
    </Form>
  );
}

/** Clears a live score entered by mistake (the fixture goes back to "not started" on the players' pages). */
export function ClearLiveScoreForm({ fixture: f, here, action }: { fixture: AdminFixture; here: string; action: string }) {
  if (!f.live) return null;
  return (
    <Form method="post" action={action} className="inline-form">
      <input type="hidden" name="intent" value="live-score" />
      <input type="hidden" name="fixtureId" value={f.id} />
      <input type="hidden" name="liveStatus" value="clear" />
      <input type="hidden" name="returnTo" value={here} />
      <button type="submit" className="btn btn-link btn-sm" aria-label={`Clear live score ${f.homeTeam} v ${f.awayTeam}`}>
        Clear live score
      </button>
    </Form>
  );
}
