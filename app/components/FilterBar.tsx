import { Form, Link, useSubmit } from "@remix-run/react";
import { useHydrated } from "~/components/useHydrated";
import type { FilterField } from "~/lib/url-filters";

interface Props {
  fields: readonly FilterField[];
  /** The current filters, keyed by search parameter (what the loader parsed from the URL). */
  values: Readonly<Record<string, string>>;
  /** The form's accessible name. */
  label: string;
  /** Where Reset leads: the list with its reset filters. */
  resetTo: string;
}

/**
 * A list's filter bar: a GET form of labelled selects, so the filters live in the URL. Without JavaScript a
 * Filter button submits it; with JavaScript every change submits at once and the button goes away.
 */
export function FilterBar({ fields, values, label, resetTo }: Props) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement>) =>
    submit(event.currentTarget.form, { replace: true, preventScrollReset: true });
  // The selects are uncontrolled: a new key remounts them when the URL's filters change (Reset, Back).
  const formKey = fields.map((f) => values[f.param]).join("|");

  return (
    <Form method="get" className="filters" key={formKey} aria-label={label}>
      {fields.map((field) => (
        <FilterSelect key={field.param} field={field} value={values[field.param] ?? ""} onChange={autoSubmit} />
      ))}
      <div className="filter-buttons">
        {!hydrated ? (
          <button type="submit" className="btn btn-secondary">
            Filter
          </button>
        ) : null}
        <Link to={resetTo} className="btn btn-link" preventScrollReset>
          Reset
        </Link>
      </div>
    </Form>
  );
}

function FilterSelect({
  field,
  value,
  onChange,
}: {
  field: FilterField;
  value: string;
  onChange: (event: React.ChangeEvent<HTMLSelectElement>) => void;
}) {
  const id = `filter-${field.param}`;
  return (
    <div className="field filter-field">
      <label htmlFor={id}>{field.label}</label>
      <select id={id} name={field.param} defaultValue={value} onChange={onChange}>
        {field.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
