/**
 * List filters that live in the URL: each is a select whose name is its search parameter, so a filtered
 * list is shareable, survives a reload and works as a plain GET form without JavaScript.
 */

interface FilterOption {
  value: string;
  label: string;
}

export interface FilterField<P extends string = string> {
  /** The search parameter, also the select's name. */
  param: P;
  label: string;
  /** The first option is the default: an "All ..." option ("") where the list offers one. */
  options: readonly FilterOption[];
}

/** The parsed filters of a list, one value per field (keyed by its search parameter). */
export type Filters<F extends readonly FilterField[]> = Record<F[number]["param"], string>;

export function filterField<P extends string>(param: P, label: string, options: readonly FilterOption[]): FilterField<P> {
  return { param, label, options };
}

/** The "All ..." option: an empty value means the filter is off. */
export const allOption = (label: string): FilterOption => ({ value: "", label });

/** Options whose label is the value itself (leagues, seasons). */
export const plainOptions = (values: readonly string[]): FilterOption[] => values.map((value) => ({ value, label: value }));

/**
 * Each field's value from the URL when it is one the field offers, else the field's default: a hand-edited
 * URL never reaches a query with a value the list does not know.
 */
export function filtersFrom<F extends readonly FilterField[]>(url: URL, fields: F): Filters<F> {
  const filters: Record<string, string> = {};
  for (const field of fields) {
    const value = url.searchParams.get(field.param);
    filters[field.param] = field.options.some((o) => o.value === value) ? value! : (field.options[0]?.value ?? "");
  }
  return filters as Filters<F>;
}

/** True when the URL sets none of the fields: the list's first visit. */
export const noFilterIn = (url: URL, fields: readonly FilterField[]) => !fields.some((f) => url.searchParams.has(f.param));
