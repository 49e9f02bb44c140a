import { Form } from "@remix-run/react";
import { FormError } from "~/components/Field";
import { RulesFields, rulesFieldValues, type RulesFieldValues } from "~/components/rules/RulesFields";
import { RulesList } from "~/components/rules/RulesList";
import { usePending } from "~/components/usePending";
import type { CompetitionFormField } from "~/lib/competition-form-fields";
import type { CompetitionRules } from "~/lib/competition-rules";

/** The creator's last refused change of the rules: the message, the field it is about and what was sent. */
export interface RulesRefusal {
  message: string;
  field: CompetitionFormField | null;
  values?: RulesFieldValues;
}

interface Props {
  type: "knockout" | "season";
  rules: CompetitionRules;
  /** The creator (or an admin): may change the rules until the start match day's deadline. */
  canChange: boolean;
  /** The start match day's deadline has passed: the rules are fixed (the server refuses a change). */
  fixed: boolean;
  startMatchDay: number;
  /** When the start match day's selection closes, in the player's zone ("Sat 14 Mar, 14:00 GMT"); null = TBA. */
  closesAt: string | null;
  refusal: RulesRefusal | null;
}

/**
 * The Overview's "Rules" panel: the competition's rules in plain words for everyone (members or not), and for its
 * creator a form to change them until the start match day's deadline (a disclosure that works without JavaScript;
 * open again with the values sent when the server refused them).
 */
export function RulesPanel({ type, rules, canChange, fixed, startMatchDay, closesAt, refusal }: Props) {
  const saving = usePending("update-rules");
  const fieldRefusal = refusal?.field ? { field: refusal.field, message: refusal.message } : null;
  return (
    <section className="rules-panel" aria-labelledby="rules-heading">
      <h2 id="rules-heading">Rules</h2>
      <RulesList type={type} rules={rules} />
      <FormError message={refusal && !refusal.field ? refusal.message : null} />
      {canChange && !fixed ? (
        <details className="rules-edit" open={refusal !== null}>
          <summary>Change rules</summary>
          <p className="hint">
            You can change the rules until selection for Match Day {startMatchDay} closes{closesAt ? ` (${closesAt})` : ""}.
          </p>
          {/* Remounted with the saved rules after a change, so the fields show what is stored. */}
          <Form method="post" className="rules-form" noValidate key={JSON.stringify(rules)}>
            <input type="hidden" name="intent" value="update-rules" />
            <RulesFields idPrefix="rules" type={type} values={refusal?.values ?? rulesFieldValues(rules)} error={fieldRefusal} />
            <button className="btn btn-primary" type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save rules"}
            </button>
          </Form>
        </details>
      ) : null}
      {canChange && fixed ? <p className="muted">The rules are fixed once the competition has started.</p> : null}
    </section>
  );
}
