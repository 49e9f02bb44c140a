import { Field, SelectField } from "~/components/Field";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPES } from "~/lib/competition-options";

/*
 * The fields both competition-creation forms ask for, with the same labels, names and limits: the players'
 * private-competition modal (CreatePrivateCompetition, ids "create-…") and the admins' Create Competition form
 * (admin/CreateCompetitionSection, ids "cc-…"). Each form lays them out in its own grid. Start Match Day is not
 * here: the two forms take it differently on purpose (see each form).
 */

export function CompetitionNameField({ idPrefix, defaultValue }: { idPrefix: string; defaultValue?: string }) {
  return (
    <Field
      id={`${idPrefix}-name`}
      label="Competition Name"
      name="name"
      type="text"
      required
      maxLength={100}
      autoComplete="off"
      defaultValue={defaultValue}
    />
  );
}

interface ChoiceProps {
  idPrefix: string;
  values: { type?: string; league?: string; season?: string };
  /** Players cannot choose: the selects show the forced values, disabled (so not posted; the server applies them). */
  locked?: boolean;
  /** Start each select on an empty "Select …" option: the admin form chooses nothing beforehand. */
  prompt?: boolean;
  /** The types offered (default CREATE_TYPES; the admin form adds Scout). */
  types?: readonly { value: string; label: string }[];
}

/** Type, League and Season, from the creation lists of spec part 1 section 5. */
const CHOICES = [
  { name: "type", label: "Type", options: CREATE_TYPES, prompt: "Select type" },
  { name: "league", label: "League", options: CREATE_LEAGUES, prompt: "Select league" },
  { name: "season", label: "Season", options: CREATE_SEASONS, prompt: "Select season" },
] as const;

export function CompetitionChoiceFields({ idPrefix, values, locked, prompt, types }: ChoiceProps) {
  return (
    <>
      {CHOICES.map((choice) => (
        <SelectField
          key={choice.name}
          id={`${idPrefix}-${choice.name}`}
          label={choice.label}
          name={choice.name}
          required
          disabled={locked}
          defaultValue={values[choice.name] ?? ""}
          options={choice.name === "type" && types ? types : choice.options}
          placeholder={prompt ? choice.prompt : undefined}
        />
      ))}
    </>
  );
}

/** Start Date: today at the earliest (in the creator's zone; the server checks it again). */
export function StartDateField({ idPrefix, today, defaultValue }: { idPrefix: string; today: string; defaultValue: string }) {
  return (
    <Field id={`${idPrefix}-start-date`} label="Start Date" name="startDate" type="date" required min={today} defaultValue={defaultValue} />
  );
}
