import { Form, useNavigation } from "@remix-run/react";
import { FormError } from "~/components/Field";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPES } from "~/lib/competition-options";

export interface CreateCompetitionValues {
  name?: string;
  type?: string;
  league?: string;
  season?: string;
  startDate?: string;
  startMatchDay?: string;
  prize?: string;
}

interface Props {
  today: string;
  error: string | null;
  values: CreateCompetitionValues | null;
}

/** Create competition (admin): public competitions of any listed league and season (spec part 2 §5). */
export function CreateCompetitionSection({ today, error, values }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "create-competition";
  const v = values ?? {};
  return (
    <section aria-labelledby="create-title" className="admin-section">
      <h2 id="create-title">Create Competition</h2>
      <Form method="post" className="card admin-form" noValidate key={JSON.stringify(v)}>
        <input type="hidden" name="intent" value="create-competition" />
        <FormError message={error} />
        <div className="field">
          <label htmlFor="cc-name">Competition Name</label>
          <input id="cc-name" name="name" type="text" required maxLength={100} autoComplete="off" defaultValue={v.name ?? ""} />
        </div>
        <div className="admin-grid">
          <div className="field">
            <label htmlFor="cc-type">Type</label>
            <select id="cc-type" name="type" required defaultValue={v.type ?? ""}>
              <option value="">Select type</option>
              {CREATE_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="cc-league">League</label>
            <select id="cc-league" name="league" required defaultValue={v.league ?? ""}>
              <option value="">Select league</option>
              {CREATE_LEAGUES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="cc-season">Season</label>
            <select id="cc-season" name="season" required defaultValue={v.season ?? ""}>
              <option value="">Select season</option>
              {CREATE_SEASONS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="cc-start-date">Start Date</label>
            <input id="cc-start-date" name="startDate" type="date" required min={today} defaultValue={v.startDate ?? ""} />
          </div>
          <div className="field">
            <label htmlFor="cc-start-md">Start Match Day</label>
            <input
              id="cc-start-md"
              name="startMatchDay"
              type="number"
              inputMode="numeric"
              min={1}
              max={60}
              step={1}
              required
              defaultValue={v.startMatchDay ?? ""}
            />
          </div>
          <div className="field">
            <label htmlFor="cc-prize">Prize (optional)</label>
            <input id="cc-prize" name="prize" type="text" maxLength={500} placeholder="Bragging Rights!" defaultValue={v.prize ?? ""} />
          </div>
        </div>
        <div className="admin-form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create Competition"}
          </button>
        </div>
      </Form>
    </section>
  );
}
