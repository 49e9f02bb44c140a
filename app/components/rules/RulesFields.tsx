import { useEffect, useRef, useState, type RefObject } from "react";
import { useHydrated } from "~/components/useHydrated";
import { DEFAULT_RULES, POINTS_MAX, POINTS_MIN, RULE_OPTIONS, type CompetitionRules } from "~/lib/competition-rules";
import type { CompetitionFormField } from "~/lib/competition-form-fields";

/*
 * The organiser's rules as form fields (rules file "The organiser's rules"), the same names and values in every
 * form that sets them: the private-competition modal, the admin's Create Competition and the creator's rules on
 * the competition page. Radio groups are fieldsets with a legend; the points are three labelled number inputs in
 * one fieldset. The server (rulesSchema, then SQL) decides; a refusal shows next to its group.
 */

/** The rules as the form's strings (a refused form's echo, or a competition's rules). */
export type RulesFieldValues = Partial<
  Record<"lives" | "draws" | "missedPick" | "everyoneOut" | "winPoints" | "drawPoints" | "lossPoints" | "joker", string>
>;

export function rulesFieldValues(rules: CompetitionRules): RulesFieldValues {
  return {
    lives: String(rules.lives),
    draws: rules.draws,
    missedPick: rules.missedPick,
    everyoneOut: rules.everyoneOut,
    winPoints: String(rules.winPoints),
    drawPoints: String(rules.drawPoints),
    lossPoints: String(rules.lossPoints),
    joker: rules.joker ? "on" : "off",
  };
}

const DEFAULT_VALUES = rulesFieldValues(DEFAULT_RULES);

/** The values to show: the given ones, the default for any left blank (a field of the other type's group was not sent). */
function shown(values: RulesFieldValues | null | undefined): Required<RulesFieldValues> {
  const given = Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => v !== undefined && v !== ""));
  return { ...DEFAULT_VALUES, ...given } as Required<RulesFieldValues>;
}

interface ErrorProps {
  /** A refusal and the field it is about (formFieldOfMessage). */
  error?: { field: CompetitionFormField | null; message: string } | null;
}

interface Props extends ErrorProps {
  idPrefix: string;
  values?: RulesFieldValues | null;
  /**
   * The competition's type when it is fixed (the creator's rules). Left out in the create forms: the groups follow
   * the form's Type select once JavaScript runs (only the chosen type's rules, the other group disabled so it is
   * not posted); before that both groups show, each under its type's name.
   */
  type?: "knockout" | "season";
}

const noteOf = (idPrefix: string, field: string) => `${idPrefix}-${field}-error`;

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <div className="field-error" id={id} role="alert">
      {message}
    </div>
  );
}

function RadioGroup({
  idPrefix,
  name,
  legend,
  hint,
  options,
  value,
  error,
}: {
  idPrefix: string;
  name: CompetitionFormField;
  legend: string;
  hint?: string;
  options: readonly { value: string; label: string }[];
  value: string;
  error: string | null;
}) {
  const errorId = noteOf(idPrefix, name);
  const hintId = `${idPrefix}-${name}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className="field rules-choice" aria-describedby={describedBy}>
      <legend>{legend}</legend>
      <div className="radio-group inline">
        {options.map((option) => (
          <label key={option.value} className="radio">
            <input type="radio" name={name} value={option.value} defaultChecked={value === option.value} />
            {option.label}
          </label>
        ))}
      </div>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

const POINTS = [
  { name: "winPoints", label: "Win" },
  { name: "drawPoints", label: "Draw" },
  { name: "lossPoints", label: "Loss" },
] as const;

/** The knockout's rules: lives, draws, a missed pick and what happens when everyone would be out. */
function KnockoutRules({ idPrefix, values, error, off, titled }: GroupProps) {
  const v = shown(values);
  const at = (field: CompetitionFormField) => (error?.field === field ? error.message : null);
  return (
    <fieldset className="rules-group" hidden={off} disabled={off} data-rules="knockout">
      <legend className={titled ? undefined : "visually-hidden"}>Knockout rules</legend>
      <RadioGroup idPrefix={idPrefix} name="lives" legend="Lives" options={RULE_OPTIONS.lives} value={v.lives} error={at("lives")} />
      <RadioGroup idPrefix={idPrefix} name="draws" legend="Draws" options={RULE_OPTIONS.draws} value={v.draws} error={at("draws")} />
      <RadioGroup
        idPrefix={idPrefix}
        name="missedPick"
        legend="Missed pick"
        hint="Auto-pick: at the deadline a player without a pick gets their plan for that match day, else the allowed team highest in the league table."
        options={RULE_OPTIONS.missedPick}
        value={v.missedPick}
        error={at("missedPick")}
      />
      <RadioGroup
        idPrefix={idPrefix}
        name="everyoneOut"
        legend="If everyone is out"
        hint="Roll-over: if every remaining player would go out on the same match day, nobody does. Joint winners: they win together."
        options={RULE_OPTIONS.everyoneOut}
        value={v.everyoneOut}
        error={at("everyoneOut")}
      />
    </fieldset>
  );
}

/** The season's rules: points for the picked team's win, draw and loss, and the joker. */
function SeasonRules({ idPrefix, values, error, off, titled }: GroupProps) {
  const v = shown(values);
  const pointsError = error?.field === "points" ? error.message : null;
  const pointsErrorId = noteOf(idPrefix, "points");
  const pointsHintId = `${idPrefix}-points-hint`;
  return (
    <fieldset className="rules-group" hidden={off} disabled={off} data-rules="season">
      <legend className={titled ? undefined : "visually-hidden"}>Season rules</legend>
      <fieldset
        className="field rules-choice"
        aria-describedby={[pointsError ? pointsErrorId : null, pointsHintId].filter(Boolean).join(" ")}
      >
        <legend>Points</legend>
        <div className="rules-points">
          {POINTS.map((p) => (
            <div className="field" key={p.name}>
              <label htmlFor={`${idPrefix}-${p.name}`}>{p.label}</label>
              <input
                id={`${idPrefix}-${p.name}`}
                name={p.name}
                type="number"
                inputMode="numeric"
                min={POINTS_MIN}
                max={POINTS_MAX}
                step={1}
                required
                defaultValue={v[p.name]}
                aria-invalid={pointsError ? true : undefined}
                aria-describedby={pointsError ? pointsErrorId : undefined}
              />
            </div>
          ))}
        </div>
        <p className="hint" id={pointsHintId}>
          Whole numbers from 0 to 10; a win more than a draw, a draw at least as many as a loss.
        </p>
        <FieldError id={pointsErrorId} message={pointsError} />
      </fieldset>
      <RadioGroup
        idPrefix={idPrefix}
        name="joker"
        legend="Joker"
        hint="Once per competition a player may play the joker on a match day before its deadline: that match day's points count double."
        options={RULE_OPTIONS.joker}
        value={v.joker}
        error={error?.field === "joker" ? error.message : null}
      />
    </fieldset>
  );
}

interface GroupProps extends ErrorProps {
  idPrefix: string;
  values?: RulesFieldValues | null;
  /** Hidden and disabled (not posted): the form's type is the other one. */
  off: boolean;
  /** Show the group's legend (both groups on the form at once), else read by screen readers only. */
  titled: boolean;
}

/** The form's Type (a select named "type") as it changes; null until JavaScript runs or without such a select. */
function useFormType(ref: RefObject<HTMLElement | null>): string | null {
  const [type, setType] = useState<string | null>(null);
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const typeField = form.elements.namedItem("type");
    if (!(typeField instanceof HTMLSelectElement)) return;
    setType(typeField.value);
    const onChange = (event: Event) => {
      const target = event.target as HTMLSelectElement | null;
      if (target?.name === "type") setType(target.value);
    };
    form.addEventListener("change", onChange);
    return () => form.removeEventListener("change", onChange);
  }, [ref]);
  return type;
}

export function RulesFields({ idPrefix, values, error, type }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const formType = useFormType(ref);
  // Fixed type: that group only. Create forms: both until JavaScript knows the Type; then the chosen one (none for Scout).
  const chosen = type ?? (hydrated && formType ? formType : null);
  const both = chosen === null;
  return (
    <div className="rules-fields" ref={ref}>
      {both ? <p className="hint">Only the rules of the chosen type apply.</p> : null}
      <KnockoutRules idPrefix={idPrefix} values={values} error={error} off={!both && chosen !== "knockout"} titled={both} />
      <SeasonRules idPrefix={idPrefix} values={values} error={error} off={!both && chosen !== "season"} titled={both} />
    </div>
  );
}
