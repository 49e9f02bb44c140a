import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled input whose error is announced and tied to it (aria-invalid + aria-describedby). */
export function Field({ label, error, hint, id, ...input }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <div className="hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A choice: a plain value (shown as is) or a value with its own label. */
type SelectOption = string | number | { value: string; label: string };

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: readonly SelectOption[];
  /** Text of an empty first option, for forms where nothing is chosen beforehand. */
  placeholder?: string;
  /** A refusal about this choice, announced and tied to the select (as Field's). */
  error?: string | null;
}

/** A labelled select, laid out like Field. */
export function SelectField({ label, options, placeholder, id, error, ...select }: SelectFieldProps) {
  const auto = useId();
  const selectId = id ?? auto;
  const errorId = `${selectId}-error`;
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      <select id={selectId} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...select}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => {
          const { value, label: text } = typeof option === "object" ? option : { value: String(option), label: String(option) };
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert">
      {message}
    </div>
  );
}
