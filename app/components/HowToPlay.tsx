/**
 * The knockout and season game rules, in one place. Two pages state them:
 * - the competition page's "How to play" card (`<HowToPlay />`), which explains them in full;
 * - the Terms' "The games" section (`<HowToPlay variant="terms" />`), in the Terms' own shorter wording: its
 *   first two bullets, as `<li>`s for the Terms' list, which goes on with the Terms' own points (results, prizes).
 * The rule both state, when picks close, is written once below: change it here and both pages follow.
 */
const PICKS_CLOSE = "one hour before";

export function HowToPlay({ variant = "card" }: { variant?: "card" | "terms" }) {
  if (variant === "terms") {
    return (
      <>
        <li>
          In knockout and season competitions you pick one team to win each match day. In Scout you predict scores. The rules for each game
          are shown in the app, and the Scout rules are on the Scout page.
        </li>
        <li>
          {`Selections and predictions close ${PICKS_CLOSE} the first kickoff of the match day. A selection that was not saved before the deadline does not count, whatever the reason.`}
        </li>
      </>
    );
  }
  return (
    <section className="card" id="how-to-play" aria-labelledby="how-heading" tabIndex={-1}>
      <h2 id="how-heading">How to play</h2>
      <p>
        {`Each match day, pick one team to win from that match day's fixtures. Picks close ${PICKS_CLOSE} the match day's first kickoff; other players' picks stay hidden until then.`}
      </p>
      <h3>Knockout</h3>
      <ul>
        <li>You may pick each team only once in a competition.</li>
        <li>If your team wins you are still in; a draw, a loss or no pick by the deadline eliminates you.</li>
        <li>If every remaining player would be eliminated on the same match day, everyone stays in.</li>
        <li>The last player standing is the champion.</li>
      </ul>
      <h3>Season</h3>
      <ul>
        <li>Pick any team with a fixture each match day; teams may be picked again.</li>
        <li>Your team scores you 3 points for a win, 1 for a draw and 0 for a loss; its goals count as your goals for and against.</li>
        <li>
          Rank is by points, then goal difference, goals for and wins. The top-ranked player after the last match day is the champion.
        </li>
      </ul>
    </section>
  );
}
