import { Form } from "@remix-run/react";
import { usePending } from "~/components/usePending";

interface Props {
  /** Where the player's joker is (null: not played yet) and whether it may still move (its deadline is ahead). */
  joker: { matchDay: number | null; canChange: boolean };
  /** The match day the page shows, and whether a pick may still be made for it (its selection is open). */
  matchDay: number;
  open: boolean;
}

/**
 * The season joker (rules file "The organiser's rules"): once per competition, on a match day before its deadline,
 * that match day's points count double; it may be moved or taken back until that deadline. Plain forms
 * (intent=joker, matchDay; empty = take it back); public.play_joker decides.
 */
export function JokerPanel({ joker, matchDay, open }: Props) {
  const here = joker.matchDay === matchDay;
  let text: string;
  if (joker.matchDay === null) text = "Your joker doubles one match day's points, once in this competition. You have not played it yet.";
  else if (here) text = `Your joker is on Match Day ${matchDay}: its points count double.`;
  else text = `Your joker is on Match Day ${joker.matchDay}: its points count double.`;
  if (joker.matchDay !== null && !joker.canChange) text += " Its match day has started, so it stays there.";
  return (
    <section className="card joker-panel" aria-labelledby="joker-heading">
      <h2 id="joker-heading">Joker</h2>
      <p data-testid="joker-status">{text}</p>
      <div className="actions">
        {joker.canChange && open && !here ? (
          <JokerButton
            shown={matchDay}
            matchDay={String(matchDay)}
            label={joker.matchDay === null ? `Play joker on Match Day ${matchDay}` : `Move joker to Match Day ${matchDay}`}
          />
        ) : null}
        {joker.canChange && joker.matchDay !== null ? <JokerButton shown={matchDay} matchDay="" label="Take joker back" /> : null}
      </div>
    </section>
  );
}

/** One joker form: play it on (or move it to) a match day, or take it back (an empty match day). */
function JokerButton({ shown, matchDay, label }: { shown: number; matchDay: string; label: string }) {
  const busy = usePending("joker", { name: "matchDay", value: matchDay });
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="joker" />
      <input type="hidden" name="matchDay" value={matchDay} />
      <input type="hidden" name="md" value={shown} />
      <button type="submit" className="btn btn-secondary btn-sm" disabled={busy}>
        {busy ? "Saving..." : label}
      </button>
    </Form>
  );
}
