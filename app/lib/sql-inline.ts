/**
 * Statements with their values written in as literals, sent with PostgreSQL's simple query protocol.
 *
 * Why: postgres.js sends a statement with parameters as Parse/Describe, waits for the server's parameter
 * description, then sends Bind/Execute, and holds every later statement until that one is done (it cannot
 * know the parameter types otherwise, and the request's connection is new, so nothing is cached). Each
 * parameterized statement therefore costs two round trips and nothing is pipelined. A statement with no
 * parameters goes out at once and many can share one network round trip, which matters when the database is
 * 50-150 ms away from the Worker (decision 012).
 *
 * Safety: a value is never spliced in as text. Each becomes one literal of the same kind postgres.js would
 * have sent as a parameter: an untyped string literal (PostgreSQL infers its type from the context, exactly
 * as for an untyped parameter), or a typed one for the kinds postgres.js types (timestamptz, boolean, int8).
 * Strings are E'' literals with every backslash and quote doubled, so their meaning does not depend on
 * standard_conforming_strings; a NUL character (which would end the statement text on the wire) is refused.
 */

/** A value the database could not be sent: the request's input, answered with 400 by the data path. */
export class BadSqlValue extends Error {}

/** An identifier (a column name chosen from a fixed list), quoted; "c.type" is "c"."type", as in postgres.js. */
export class SqlIdentifier {
  constructor(readonly name: string) {}
  get text(): string {
    return this.name
      .split(".")
      .map((part) => `"${part.replace(/"/g, '""')}"`)
      .join(".");
  }
}

/** A piece of SQL with its values already written in; embedding it in another statement adds its text. */
export class SqlFragment {
  constructor(readonly text: string) {}
}

function quote(text: string): string {
  if (text.includes("\u0000")) throw new BadSqlValue("A text value contains a NUL character.");
  return `E'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** One value as a SQL literal (see the file comment for the rules). */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof SqlFragment || value instanceof SqlIdentifier) return value.text;
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      if (!Number.isFinite(value)) throw new BadSqlValue("A number is not finite.");
      return quote(String(value));
    case "bigint":
      return `${quote(value.toString())}::int8`;
    case "boolean":
      return value ? "true" : "false";
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new BadSqlValue("A date is invalid.");
    return `${quote(value.toISOString())}::timestamptz`;
  }
  throw new TypeError(`Unsupported SQL value of type ${Object.prototype.toString.call(value)}`);
}

/** A tagged template's text with each value written in as a literal (fragments and identifiers as SQL). */
export function render(strings: readonly string[], values: readonly unknown[]): string {
  let text = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) text += literal(values[i]) + strings[i + 1];
  return text;
}

/** `$1`-style placeholders of a fixed statement text replaced by literals of `params`. */
export function renderNumbered(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)\b/g, (match, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new TypeError(`No value for ${match}`);
    return literal(params[i]);
  });
}
