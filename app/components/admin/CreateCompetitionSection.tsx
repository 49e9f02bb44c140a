import { Form } from "@remix-run/react";
import { CompetitionChoiceFields, CompetitionNameField, StartDateField, type CreationChoice } from "~/components/CompetitionFields";
import { Field, FormError } from "~/components/Field";
import { RulesFields, type RulesFieldValues } from "~/components/rules/RulesFields";
import { formFieldOfMessage } from "~/lib/competition-form-fields";
import { usePending } from "~/components/usePending";
import { ADMIN_CREATE_TYPES, DEFAULT_PRIZE } from "~/lib/competition-options";
import { ScoutPrizeFields } from "./ScoutPrizeFields";
import { ADMIN_PATHS } from "./sections";

export interface CreateCompetitionValues extends RulesFieldValues {
  name?: string;
  type?: string;
  league?: string;
  season?: string;
  startDate?: string;
  startMatchDay?: string;
  prize?: string;
  prizeTitle?: string;
  prizeDescription?: string;
  prizeTermsUrl?: string;
  prizeImageUrl?: string;
}

interface Props {
  today: string;
  /** The admin's zone (the start match day's deadline in its hint). */
  timeZone: string;
  /** The leagues and seasons with a coming match day. */
  choices: CreationChoice[];
  error: string | null;
  values: CreateCompetitionValues | null;
}

/**
 * Create competition (admin): public competitions of any league and season with a coming match day, knockout and
 * season ones with the organiser's rules, Scout with its prize (spec part 2 §5, the rules file's "The organiser's
 * rules"). A refusal shows next to the field it is about, else above the form.
 */
export function CreateCompetitionSection({ today, timeZone, choices, error, values }: Props) {
  const busy = usePending("create-competition");
  const v = values ?? {};
  const refusal = error ? { message: error, field: formFieldOfMessage(error) } : null;
  return (
    <section aria-labelledby="create-title" className="admin-section">
      <h2 id="create-title">Create Competition</h2>
      <Form method="post" action={ADMIN_PATHS.create} className="card admin-form" noValidate key={JSON.stringify(v)}>
        <input type="hidden" name="intent" value="create-competition" />
        <FormError message={refusal && !refusal.field ? refusal.message : null} />
        <CompetitionNameField idPrefix="cc" defaultValue={v.name ?? ""} error={refusal?.field === "name" ? refusal.message : undefined} />
        <CompetitionChoiceFields
          idPrefix="cc"
          choices={choices}
          values={v}
          prompt
          types={ADMIN_CREATE_TYPES}
          timeZone={timeZone}
          error={refusal}
          gridClassName="admin-grid"
        />
        <div className="admin-grid">
          <StartDateField
            idPrefix="cc"
            today={today}
            defaultValue={v.startDate ?? ""}
            error={refusal?.field === "startDate" ? refusal.message : undefined}
          />
          <Field
            id="cc-prize"
            label="Prize (optional)"
            name="prize"
            type="text"
            maxLength={500}
            placeholder={DEFAULT_PRIZE}
            defaultValue={v.prize ?? ""}
          />
        </div>
        <RulesFields idPrefix="cc" values={v} error={refusal} />
        <ScoutPrizeFields values={v} />
        <div className="admin-form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create Competition"}
          </button>
        </div>
      </Form>
    </section>
  );
}
