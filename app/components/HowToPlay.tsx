import { RulesList } from "~/components/rules/RulesList";
import { DEFAULT_RULES, type CompetitionRules } from "~/lib/competition-rules";

/**
 * The knockout and season game rules, in one place. Two pages state them:
 * - the competition page's "How to play" card (`<HowToPlay competition={...} />`), which explains them in full, in
 *   that competition's rules (the organiser's: lives, draws, missed pick, everyone out, points, joker);
 * - the Terms' "The games" section (`<HowToPlay variant="terms" />`), in the Terms' own shorter wording: its
 *   first two bullets, as `<li>`s for the Terms' list, which goes on with the Terms' own points (results, prizes).
 * The rule both state, when picks close, is written once below: change it here and both pages follow.
 */
const PICKS_CLOSE = "one hour before";

interface Props {
  variant?: "card" | "terms";
  /** The competition whose rules the card states (the competition page); without it, the default rules of both types. */
  competition?: { type: "knockout" | "season"; rules: CompetitionRules };
}

export function HowToPlay({ variant = "card", competition }: Props) {
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
  return <HowToPlayCard type={competition?.type ?? null} rules={competition?.rules ?? DEFAULT_RULES} />;
}

/** "a, b and c" */
function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The knockout's rules as bullets, in this competition's settings (its lives, draw, missed-pick and everyone-out rules). */
function knockoutBullets(rules: CompetitionRules): string[] {
  const through = rules.draws === "through" ? "wins or draws" : "wins";
  const costs = listed([
    "a loss",
    ...(rules.draws === "through" ? [] : ["a draw"]),
    ...(rules.missedPick === "auto" ? [] : ["no pick by the deadline"]),
  ]);
  const bullets = ["You may pick each team only once in a competition, plans for coming match days included."];
  bullets.push(
    rules.lives === 1
      ? `If your team ${through} you are still in; ${costs} eliminates you.`
      : `You have ${rules.lives} lives. If your team ${through} you are still in; ${costs} costs a life, and you are out when your last life goes.`,
  );
  if (rules.missedPick === "auto") {
    bullets.push(
      "No pick by the deadline means an auto-pick: your plan for that match day if it is still allowed, else the allowed team highest in the league table. It counts as your pick (the team is used).",
    );
  }
  bullets.push(
    rules.everyoneOut === "joint"
      ? "If every remaining player would be out on the same match day, they are joint winners and the competition ends."
      : `If every remaining player would be out on the same match day, everyone stays in${rules.lives > 1 ? " and nobody loses a life" : ""}.`,
  );
  bullets.push("The last player standing is the champion.");
  return bullets;
}

/** The season's rules as bullets, in this competition's points and joker. */
function seasonBullets(rules: CompetitionRules): string[] {
  const bullets = [
    "Pick any team with a fixture each match day; teams may be picked again.",
    `Your team scores you ${rules.winPoints} points for a win, ${rules.drawPoints} for a draw and ${rules.lossPoints} for a loss; its goals count as your goals for and against.`,
  ];
  if (rules.joker) {
    bullets.push(
      "Once per competition you may play your joker on a match day, before its deadline: that match day's points count double. Others see it only after that deadline.",
    );
  }
  bullets.push(
    "Rank is by points, then goal difference, goals for and wins. The top-ranked player after the last match day is the champion.",
  );
  return bullets;
}

function HowToPlayCard({ type, rules }: { type: "knockout" | "season" | null; rules: CompetitionRules }) {
  return (
    <section className="card" id="how-to-play" aria-labelledby="how-heading" tabIndex={-1}>
      <h2 id="how-heading">How to play</h2>
      <p>
        {`Each match day, pick one team to win from that match day's fixtures. Picks close ${PICKS_CLOSE} the match day's first kickoff; other players' picks stay hidden until then. You may pick ahead for any coming match day that has fixtures and change it until that match day's deadline.`}
      </p>
      {type !== "season" ? (
        <>
          <h3>Knockout</h3>
          <ul>
            {knockoutBullets(rules).map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </>
      ) : null}
      {type !== "knockout" ? (
        <>
          <h3>Season</h3>
          <ul>
            {seasonBullets(rules).map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </>
      ) : null}
      {type ? (
        <>
          <h3>This competition&apos;s rules</h3>
          <RulesList type={type} rules={rules} label="This competition's rules" />
        </>
      ) : null}
    </section>
  );
}
