import { Form } from "@remix-run/react";
import { CompetitionChoiceFields, CompetitionNameField, StartDateField } from "~/components/CompetitionFields";
import { Field, FormError } from "~/components/Field";
import { usePending } from "~/components/usePending";
import { ADMIN_CREATE_TYPES, DEFAULT_PRIZE } from "~/lib/competition-options";
import { ScoutPrizeFields } from "./ScoutPrizeFields";
import { ADMIN_PATHS } from "./sections";

export interface CreateCompetitionValues {
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
  error: string | null;
  values: CreateCompetitionValues | null;
}

/** Create competition (admin): public competitions of any listed league and season, Scout with its prize (spec part 2 §5). */
export function CreateCompetitionSection({ today, error, values }: Props) {
  const busy = usePending("create-competition");
  const v = values ?? {};
  return (
    <section aria-labelledby="create-title" className="admin-section">
      <h2 id="create-title">Create Competition</h2>
      <Form method="post" action={ADMIN_PATHS.create} className="card admin-form" noValidate key={JSON.stringify(v)}>
        <input type="hidden" name="intent" value="create-competition" />
        <FormError message={error} />
        <CompetitionNameField idPrefix="cc" defaultValue={v.name ?? ""} />
        <div className="admin-grid">
          <CompetitionChoiceFields idPrefix="cc" values={v} prompt types={ADMIN_CREATE_TYPES} />
          <StartDateField idPrefix="cc" today={today} defaultValue={v.startDate ?? ""} />
          {/* Left out of CompetitionFields on purpose: here a number input (1 to 60, spec part 2 only asks for a
              value), while the players' modal takes digits as text so "1x" gets spec part 1's own message. */}
          <Field
            id="cc-start-md"
            label="Start Match Day"
            name="startMatchDay"
            type="number"
            inputMode="numeric"
            min={1}
            max={60}
            step={1}
            required
            defaultValue={v.startMatchDay ?? ""}
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
