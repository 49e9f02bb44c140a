import { rulesLines, type CompetitionRules } from "~/lib/competition-rules";

/** The competition's rules in plain words ("Lives: 2", "A draw is enough", ...): the rules of its type only. */
export function RulesList({
  type,
  rules,
  label,
  inline = false,
}: {
  type: "knockout" | "season";
  rules: CompetitionRules;
  label?: string;
  /** One compact run of small text (a competition card), instead of a list of lines. */
  inline?: boolean;
}) {
  return (
    <ul className={inline ? "rules-list rules-inline" : "rules-list"} aria-label={label}>
      {rulesLines(type, rules).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
