/**
 * Row types of the public views and functions, from the catalog of a database the migrations build: writes
 * app/db/row-types.generated.ts, which the models use to type the rows of their queries.
 *
 *   npm run db:types            (= npx tsx scripts/db/row-types.ts)
 *
 * tests/db/row-types.test.ts fails while the checked-in file differs from what this writes (a view or a function
 * changed without regenerating). The TypeScript types are what postgres.js hands the app on the player path
 * (app/db/player-transaction.server.ts: simple query protocol through `unsafe`, fetch_types off), checked by
 * running such a statement: see TYPE_NOTES below.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { format, resolveConfig } from "prettier";
import { connect, createTestDatabase, dropTestDatabase, startPostgres } from "../../tests/support/pg";
import { runIfMain } from "./run-main";

export const ROW_TYPES_FILE = path.resolve(import.meta.dirname, "../../app/db/row-types.generated.ts");

/** Postgres base types by what postgres.js returns for them without fetched types; anything else is a string. */
const NUMBER = new Set(["int2", "int4", "float4", "float8", "oid"]);
const STRING_NUMBER = new Set(["int8", "numeric", "money"]);
const DATE = new Set(["timestamptz", "timestamp", "date"]);
const JSON_TYPES = new Set(["json", "jsonb"]);

const TYPE_NOTES = [
  "int2, int4, float4, float8 -> number; int8, numeric -> string (postgres.js keeps their precision);",
  "bool -> boolean; timestamptz, timestamp, date -> Date (postgres.js parses these OIDs even with fetch_types",
  "off); json, jsonb -> unknown (parsed); arrays -> string (their literal, e.g. '{a,b}': without fetched types",
  "postgres.js does not parse arrays); enums, text, uuid, interval and the rest -> string. Domains map as their base type.",
];

interface TypeInfo {
  oid: number;
  typname: string;
  typtype: string;
  typcategory: string;
  typbasetype: number;
  typrelid: number;
}

interface Column {
  name: string;
  type: number;
}

const pascal = (name: string) =>
  name
    .split("_")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

const key = (name: string) => (/^[a-z_][a-z0-9_]*$/i.test(name) ? name : JSON.stringify(name));

/** The catalog's views and functions in public, as TypeScript source. */
export async function generateRowTypes(sql: postgres.Sql): Promise<string> {
  const types = new Map<number, TypeInfo>();
  for (const t of await sql<TypeInfo[]>`
    select oid::int as oid, typname::text as typname, typtype::text as typtype, typcategory::text as typcategory,
           typbasetype::int as typbasetype, typrelid::int as typrelid
      from pg_type`)
    types.set(t.oid, t);

  const tsType = (oid: number, input = false): string => {
    let t = types.get(oid);
    while (t && t.typtype === "d") t = types.get(t.typbasetype);
    if (!t) return "unknown";
    if (t.typcategory === "A") return "string";
    if (NUMBER.has(t.typname)) return "number";
    if (STRING_NUMBER.has(t.typname)) return input ? "string | number" : "string";
    if (t.typname === "bool") return "boolean";
    if (DATE.has(t.typname)) return input ? "Date | string" : "Date";
    if (JSON_TYPES.has(t.typname)) return "unknown";
    return "string";
  };

  const relationColumns = async (relid: number): Promise<Column[]> =>
    sql<Column[]>`
      select a.attname::text as name, a.atttypid::int as type
        from pg_attribute a
       where a.attrelid = ${relid} and a.attnum > 0 and not a.attisdropped
       order by a.attnum`;

  const objectType = (name: string, columns: Column[], nullable: boolean, input = false) =>
    columns.length === 0
      ? `export type ${name} = Record<string, never>;`
      : `export type ${name} = {\n${columns.map((c) => `  ${key(c.name)}: ${tsType(c.type, input)}${nullable ? " | null" : ""};`).join("\n")}\n};`;

  const out: string[] = [];

  const views = await sql<{ name: string; oid: number }[]>`
    select c.relname::text as name, c.oid::int as oid
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('v', 'm')
     order by c.relname`;
  out.push("// Views: one row of each (every column `| null`: see the header).");
  for (const v of views) {
    const name = `${pascal(v.name)}${v.name.endsWith("_view") ? "" : "View"}Row`;
    out.push("", `/** A row of public.${v.name}. */`, objectType(name, await relationColumns(v.oid), true));
  }

  const functions = await sql<
    {
      name: string;
      identity: string;
      retset: boolean;
      rettype: number;
      argnames: string[] | null;
      argmodes: string[] | null;
      argtypes: number[];
    }[]
  >`
    select p.proname::text as name, pg_get_function_identity_arguments(p.oid) as identity, p.proretset as retset,
           p.prorettype::int as rettype, array_to_json(p.proargnames) as argnames, array_to_json(p.proargmodes) as argmodes,
           coalesce(array_to_json(p.proallargtypes::int[]), array_to_json(string_to_array(nullif(p.proargtypes::text, ''), ' ')::int[]), '[]') as argtypes
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.prokind = 'f'
       and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by p.proname, pg_get_function_identity_arguments(p.oid)`;
  const overloads = new Map<string, number>();
  for (const f of functions) overloads.set(f.name, (overloads.get(f.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  out.push("", "// Functions: their arguments (Args) and a row of what they return (Row: set-returning or a row; Result: a scalar).");
  for (const f of functions) {
    const ret = types.get(f.rettype);
    if (!ret || ["trigger", "event_trigger", "void", "internal"].includes(ret.typname)) continue;
    const modes = f.argmodes ?? f.argtypes.map(() => "i");
    const args: Column[] = [];
    const outs: Column[] = [];
    f.argtypes.forEach((type, i) => {
      const column = { name: f.argnames?.[i] || `$${i + 1}`, type };
      if (modes[i] === "o" || modes[i] === "t") outs.push(column);
      else if (modes[i] === "b") {
        args.push(column);
        outs.push(column);
      } else args.push(column);
    });
    let result: Column[] | null = outs.length ? outs : null;
    if (!result && ret.typtype === "c") result = await relationColumns(ret.typrelid);
    if (!result && ret.typname === "record") continue; // a record without OUT arguments: no shape to name
    const n = (seen.get(f.name) ?? 0) + 1;
    seen.set(f.name, n);
    const base = pascal(f.name) + ((overloads.get(f.name) ?? 1) > 1 && n > 1 ? String(n) : "");
    out.push("", `/** public.${f.name}(${f.identity})${f.retset ? ": a set" : ""} */`);
    out.push(objectType(`${base}Args`, args, false, true));
    if (result) out.push(objectType(`${base}Row`, result, true));
    else {
      const type = tsType(f.rettype);
      out.push(`export type ${base}Result = ${type === "unknown" ? type : `${type} | null`};`);
    }
  }

  const text = [
    "/*",
    " * GENERATED by scripts/db/row-types.ts from the catalog of a database built by supabase/migrations: do not edit.",
    " * Regenerate with `npm run db:types` after changing a view or a function in public; tests/db/row-types.test.ts",
    " * fails while this file is stale.",
    " *",
    " * The types are what postgres.js returns on the player path (simple query protocol, fetch_types off):",
    ...TYPE_NOTES.map((l) => ` * ${l}`),
    " *",
    " * Nullability: every view column and every function result is `| null`. Postgres records no NOT NULL for a",
    " * view's columns or a function's results (an outer join or an aggregate can make any of them null), and this",
    " * generator does not try to prove otherwise; a model that knows better says so where it reads the row.",
    " */",
    "",
    ...out,
    "",
  ].join("\n");
  // Formatted as `npm run lint` wants it, so the checked-in file is exactly this.
  return format(text, { ...(await resolveConfig(ROW_TYPES_FILE)), filepath: ROW_TYPES_FILE });
}

async function main() {
  const server = await startPostgres();
  try {
    const url = await createTestDatabase(server.url);
    const sql = connect(url, { max: 1 });
    try {
      writeFileSync(ROW_TYPES_FILE, await generateRowTypes(sql));
      console.log(`wrote ${path.relative(process.cwd(), ROW_TYPES_FILE)} (from ${server.kind})`);
    } finally {
      await sql.end({ timeout: 5 });
      await dropTestDatabase(url);
    }
  } finally {
    await server.stop();
  }
}

runIfMain(import.meta.url, main);
