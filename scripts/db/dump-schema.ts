/**
 * Writes supabase/schema.sql: the current definition of every schema object (tables, views, functions,
 * triggers, row-level security policies, grants) as the migrations leave them, for reading in one place.
 * supabase/migrations/ stays the only way to change the database; this file is generated from it.
 *
 *   npm run db:schema            (= npx tsx scripts/db/dump-schema.ts)
 *
 * How: a throwaway PostgreSQL (tests/support/pg.ts), an empty database migrated with the project's runner
 * (scripts/db/migrate.ts), `pg_dump --schema-only --no-owner` of every schema but the runner's history
 * (supabase_migrations), then normaliseDump(): pg_dump's banner, session settings and per-run \restrict keys
 * are dropped and the entries are regrouped by schema and object (see normaliseDump). Grants are kept: with
 * the policies they are the security model, and they come out in a stable order.
 *
 * tests/db/schema-dump.test.ts runs migratedSchema() on a fresh database and fails when the result differs
 * from the checked-in file.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { connect, createTestDatabase, dropTestDatabase, startPostgres } from "../../tests/support/pg";
import { migrate } from "./migrate";
import { runIfMain } from "./run-main";

const execFileAsync = promisify(execFile);

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SCHEMA_FILE = path.join(ROOT, "supabase/schema.sql");
export const MIGRATIONS_DIR = path.join(ROOT, "supabase/migrations");
/** Schemas left out of the dump: the migration runner's bookkeeping, not part of the app's schema. */
export const EXCLUDED_SCHEMAS = ["supabase_migrations"];

export interface PgDump {
  path: string;
  /** Major version, e.g. 15: pg_dump's output differs a little between major versions. */
  major: number;
}

/** Debian's newest pg_dump (/usr/lib/postgresql/<v>/bin/pg_dump), or null when PostgreSQL is not installed. */
export function findPgDump(root = "/usr/lib/postgresql"): PgDump | null {
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, "bin", "pg_dump")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? { path: path.join(root, versions[0], "bin", "pg_dump"), major: Number(versions[0]) } : null;
}

/** pg_dump's raw schema-only output for the database at `url`. */
export async function pgDumpSchema(url: string, pgDump: PgDump): Promise<string> {
  const args = ["--schema-only", "--no-owner", ...EXCLUDED_SCHEMAS.map((s) => `--exclude-schema=${s}`), `--dbname=${url}`];
  const { stdout } = await execFileAsync(pgDump.path, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Migrates the empty database at `url` with the project's runner and returns its normalised dump. */
export async function migratedSchema(url: string, pgDump: PgDump, migrationsDir = MIGRATIONS_DIR): Promise<string> {
  const sql = connect(url, { max: 1 });
  try {
    await migrate(sql, migrationsDir);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return normaliseDump(await pgDumpSchema(url, pgDump), pgDump.major);
}

// ---------------------------------------------------------------------------------------------------------
// Normalising pg_dump's output

/** One pg_dump archive entry: its `-- Name: ...; Type: ...; Schema: ...` header and its statements. */
interface Entry {
  name: string;
  type: string;
  /** "-" for objects outside any schema (schemas, extensions, their comments and grants). */
  schema: string;
  body: string;
  /** Position in pg_dump's output: the order kept inside a group. */
  index: number;
}

const HEADER = /^-- Name: (.*); Type: (.*); Schema: ([^;]*)(?:; Owner: .*)?$/;

/** Splits pg_dump's plain output into entries; the banner and session settings before the first are dropped. */
export function parseDump(raw: string): Entry[] {
  const lines = raw.replace(/\r\n/g, "\n").split("\n");
  const entries: Entry[] = [];
  let current: { head: RegExpExecArray; body: string[] } | null = null;
  const close = () => {
    if (!current) return;
    const body = current.body
      // pg_dump >= 15.14 wraps its output in \restrict KEY ... \unrestrict KEY with a random key per run.
      .filter((l) => !/^\\(un)?restrict\b/.test(l) && !/^-- PostgreSQL database dump complete$/.test(l))
      .join("\n")
      .replace(/^\n+|\s+$/g, "")
      // what is left of the closing "-- PostgreSQL database dump complete" comment block
      .replace(/(\n+--)+$/, "")
      // pg_dump sets session options between entries (SET default_tablespace = '' before the first table, ...):
      // they land at the end of the entry before.
      .replace(/(\n+SET [a-z_]+ = [^\n]*;)+$/, "");
    const [, name, type, schema] = current.head;
    entries.push({ name, type, schema, body, index: entries.length });
    current = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const head = HEADER.exec(lines[i]);
    // An entry starts with "--", "-- Name: ...", "--": a function body would have to contain that exact
    // three-line comment to be split wrongly.
    if (head && lines[i - 1] === "--" && lines[i + 1] === "--") {
      if (current) current.body.pop(); // the "--" opening this header
      close();
      current = { head, body: [] };
      i++; // skip the closing "--"
      continue;
    }
    current?.body.push(lines[i]);
  }
  close();
  return entries;
}

type Group = "type" | "sequence" | "table" | "view" | "function" | "other";
const GROUP_TITLES: Record<Group, string> = {
  type: "Types",
  sequence: "Sequences",
  table: "Tables",
  view: "Views",
  function: "Functions",
  other: "Other objects",
};
const GROUP_ORDER: Group[] = ["type", "sequence", "table", "view", "function", "other"];
/** pg_dump entry types that are objects of their own, and the group each is listed under. */
const PRIMARY: Record<string, Group> = {
  TYPE: "type",
  DOMAIN: "type",
  SEQUENCE: "sequence",
  TABLE: "table",
  "FOREIGN TABLE": "table",
  VIEW: "view",
  "MATERIALIZED VIEW": "view",
  FUNCTION: "function",
  PROCEDURE: "function",
  AGGREGATE: "function",
};
/** The namespace a name is looked up in: relations share one, routines another, types a third. */
const NAMESPACE: Record<string, string> = {
  TYPE: "type",
  DOMAIN: "type",
  SEQUENCE: "rel",
  TABLE: "rel",
  "FOREIGN TABLE": "rel",
  VIEW: "rel",
  "MATERIALIZED VIEW": "rel",
  FUNCTION: "routine",
  PROCEDURE: "routine",
  AGGREGATE: "routine",
};

interface Item {
  group: Group;
  name: string;
  entries: Entry[];
}

interface SchemaSection {
  /** The schema's own entries: CREATE SCHEMA, its comment and grants, extensions created in it. */
  own: Entry[];
  items: Map<string, Item>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const unquote = (identifier: string) => identifier.replace(/^"(.*)"$/, "$1").replace(/""/g, '"');

/**
 * pg_dump's schema-only output made stable and readable:
 * - dropped: the banner (server and pg_dump versions), the SET lines, the \restrict / \unrestrict lines whose
 *   key changes every run, trailing blanks; a fixed header (with pg_dump's major version) comes first;
 * - grouped: per schema (alphabetical), then types, sequences, tables, views, functions (each alphabetical);
 *   each table is followed by everything pg_dump emits about it elsewhere (identity, constraints, indexes,
 *   triggers, row-level security, policies, comments, grants), each view and function by its comment and grants,
 *   in pg_dump's own order. An entry that cannot be placed goes to the schema's "Other objects", never away.
 * The result is for reading: it is not ordered for loading with psql. The migrations build databases.
 */
export function normaliseDump(raw: string, pgDumpMajor: number): string {
  const entries = parseDump(raw);
  if (!entries.some((e) => e.type === "TABLE")) throw new Error("pg_dump printed no table: is the database migrated?");

  const sections = new Map<string, SchemaSection>();
  const section = (schema: string) => {
    let s = sections.get(schema);
    if (!s) sections.set(schema, (s = { own: [], items: new Map() }));
    return s;
  };
  const byKey = new Map<string, Item>();
  const key = (schema: string, namespace: string, name: string) => `${schema}\u0000${namespace}\u0000${name}`;

  // Pass 1: the objects of their own.
  for (const e of entries) {
    const group = PRIMARY[e.type];
    // An identity column's sequence is printed as ALTER TABLE ... ADD GENERATED: it belongs to its table.
    if (!group || (e.type === "SEQUENCE" && !/^CREATE SEQUENCE /m.test(e.body))) continue;
    const item: Item = { group, name: e.name, entries: [e] };
    byKey.set(key(e.schema, NAMESPACE[e.type], e.name), item);
    section(e.schema).items.set(`${group}\u0000${e.name}`, item);
  }

  const relation = (schema: string, name: string) => byKey.get(key(schema, "rel", unquote(name)));
  /** "schema.table" as printed in a statement (either part may be quoted). */
  const qualified = (body: string, pattern: RegExp) => {
    const m = pattern.exec(body);
    return m ? relation(unquote(m[1]), m[2]) : undefined;
  };
  /**
   * A function's own entry is named "f(jsonb)" (argument types), its ACL and COMMENT "f(p_rows jsonb)"
   * (identity arguments: mode, name, type). They match when every argument ends with the same type.
   */
  const routines = [...byKey.values()].filter((i) => i.group === "function");
  const routine = (schema: string, signature: string) => {
    const [name, args] = splitSignature(signature);
    return routines.find((item) => {
      const own = item.entries[0];
      const [ownName, types] = splitSignature(own.name);
      return (
        own.schema === schema &&
        ownName === name &&
        types.length === args.length &&
        types.every((type, i) => args[i] === type || args[i].endsWith(` ${type}`))
      );
    });
  };
  const IDENT = String.raw`("(?:[^"]|"")+"|[^\s."(]+)`;
  const QUALIFIED = String.raw`${IDENT}\.${IDENT}`;

  /** The object an entry is about, or null. Names in ACL and COMMENT entries read "<KIND> <name>". */
  const ownerOf = (e: Entry): Item | undefined => {
    switch (e.type) {
      case "CONSTRAINT":
      case "FK CONSTRAINT":
      case "CHECK CONSTRAINT":
      case "POLICY":
      case "TRIGGER":
      case "RULE":
      case "DEFAULT":
        // "<table> <object>"
        return relation(e.schema, e.name.split(" ")[0]);
      case "ROW SECURITY":
        return relation(e.schema, e.name);
      case "INDEX":
        return qualified(e.body, new RegExp(String.raw`^CREATE (?:UNIQUE )?INDEX \S+ ON (?:ONLY )?${QUALIFIED}`, "m"));
      case "SEQUENCE":
        return qualified(e.body, new RegExp(String.raw`^ALTER TABLE (?:ONLY )?${QUALIFIED} ALTER COLUMN`, "m"));
      case "SEQUENCE OWNED BY":
        return qualified(e.body, new RegExp(String.raw`OWNED BY ${QUALIFIED}\.`, "m"));
      case "ACL":
      case "COMMENT": {
        const m = /^(TABLE|VIEW|MATERIALIZED VIEW|FOREIGN TABLE|SEQUENCE|COLUMN|FUNCTION|PROCEDURE|AGGREGATE|TYPE|DOMAIN) (.*)$/.exec(
          e.name,
        );
        if (!m) return undefined;
        const [, kind, name] = m;
        if (kind === "COLUMN") return relation(e.schema, name.split(".")[0]);
        if (NAMESPACE[kind] === "routine") return routine(e.schema, name);
        return byKey.get(key(e.schema, NAMESPACE[kind], name));
      }
      default:
        return undefined;
    }
  };

  // Pass 2: everything else, attached to its object, its schema, or the schema's "other" list.
  const placed = new Set<Entry>();
  for (const item of byKey.values()) item.entries.forEach((e) => placed.add(e));
  for (const e of entries) {
    if (placed.has(e)) continue;
    placed.add(e);
    const owner = ownerOf(e);
    if (owner) {
      owner.entries.push(e);
      continue;
    }
    if (e.type === "SCHEMA") {
      section(e.name).own.push(e);
      continue;
    }
    const schemaWide = /^(SCHEMA|EXTENSION) (.*)$/.exec(e.name);
    if ((e.type === "ACL" || e.type === "COMMENT") && schemaWide?.[1] === "SCHEMA") {
      section(schemaWide[2]).own.push(e);
      continue;
    }
    if (e.type === "EXTENSION" || (e.type === "COMMENT" && schemaWide?.[1] === "EXTENSION")) {
      // Shown with the schema the extension is installed in (CREATE EXTENSION ... WITH SCHEMA s).
      const extension = e.type === "EXTENSION" ? e.name : schemaWide![2];
      const create = entries.find((x) => x.type === "EXTENSION" && x.name === extension);
      const home = create && /WITH SCHEMA ("(?:[^"]|"")+"|\S+?);/.exec(create.body);
      section(home ? unquote(home[1]) : "-").own.push(e);
      continue;
    }
    const other: Item = { group: "other", name: `${e.type} ${e.name}`, entries: [e] };
    section(e.schema).items.set(`other\u0000${String(e.index).padStart(6, "0")}`, other);
  }

  const schemas = [...sections.keys()].sort(compare);
  const out: string[] = [];
  const rule = "-- " + "=".repeat(105);
  const routineName = (signature: string) => signature.replace(/\(.*$/s, "");

  out.push(
    "-- FootyCoach database schema: the current definition of every table, view, function, trigger, row-level",
    "-- security policy and grant, as the migrations in supabase/migrations/ leave them.",
    "--",
    "-- GENERATED by `npm run db:schema` (scripts/db/dump-schema.ts): do not edit. To change the database, add a",
    "-- migration and regenerate this file (docs/database.md); tests/db/schema-dump.test.ts fails when it is stale.",
    `-- Dumped with pg_dump ${pgDumpMajor} (--schema-only --no-owner; ${EXCLUDED_SCHEMAS.join(", ")} left out).`,
    "--",
    "-- For reading, not for loading with psql: per schema, then types, sequences, tables, views and functions in",
    "-- alphabetical order; each table is followed by its identity, constraints, indexes, triggers, row-level",
    "-- security, policies, comments and grants, each view and function by its comment and grants.",
    "--",
    "-- Contents",
  );
  for (const schema of schemas) {
    const items = [...sections.get(schema)!.items.values()];
    for (const group of GROUP_ORDER) {
      if (group === "other") continue;
      const names = items.filter((i) => i.group === group).map((i) => (group === "function" ? routineName(i.name) : i.name));
      const unique = [...new Set(names)].sort(compare);
      if (!unique.length) continue;
      out.push(...wrap(`--   ${schema} ${GROUP_TITLES[group].toLowerCase()}: `, unique, 110));
    }
  }
  out.push("");

  let emitted = 0;
  for (const schema of schemas) {
    const s = sections.get(schema)!;
    out.push("", rule, `-- Schema ${schema === "-" ? "(none)" : schema}`, rule, "");
    for (const e of s.own.sort((a, b) => a.index - b.index)) out.push(render(e));
    emitted += s.own.length;
    const items = [...s.items.values()];
    for (const group of GROUP_ORDER) {
      const inGroup = items
        .filter((i) => i.group === group)
        .sort((a, b) => (group === "other" ? a.entries[0].index - b.entries[0].index : compare(a.name, b.name)));
      if (!inGroup.length) continue;
      out.push(`-- ${schema}: ${GROUP_TITLES[group].toLowerCase()} ${"-".repeat(Math.max(3, 100 - schema.length - group.length))}`, "");
      for (const item of inGroup) {
        for (const e of item.entries.sort((a, b) => a.index - b.index)) out.push(render(e));
        emitted += item.entries.length;
      }
    }
  }
  if (emitted !== entries.length) throw new Error(`normaliseDump wrote ${emitted} of pg_dump's ${entries.length} entries`);
  return (
    out
      .join("\n")
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd() + "\n"
  );
}

/** "f(a text, b integer)" -> ["f", ["a text", "b integer"]]. */
function splitSignature(signature: string): [string, string[]] {
  const open = signature.indexOf("(");
  if (open < 0 || !signature.endsWith(")")) return [signature, []];
  const inner = signature.slice(open + 1, -1).trim();
  return [signature.slice(0, open), inner ? inner.split(", ").map((a) => a.trim()) : []];
}

function render(e: Entry): string {
  return `--\n-- Name: ${e.name}; Type: ${e.type}; Schema: ${e.schema}\n--\n\n${e.body}\n\n`;
}

/** "-- prefix a, b, c" wrapped at `width`, continuation lines indented under the first name. */
function wrap(prefix: string, names: string[], width: number): string[] {
  const lines: string[] = [];
  const indent = "--" + " ".repeat(prefix.length - 2);
  let line = prefix;
  let empty = true;
  names.forEach((name, i) => {
    const piece = name + (i < names.length - 1 ? "," : "");
    if (!empty && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += (empty ? "" : " ") + piece;
    empty = false;
  });
  lines.push(line);
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// The command

/** A throwaway PostgreSQL, an empty database migrated there, its normalised dump. */
export async function buildSchemaDump(log: (m: string) => void = () => {}): Promise<string> {
  const pgDump = findPgDump();
  if (!pgDump) throw new Error("pg_dump not found under /usr/lib/postgresql/<version>/bin: install Debian's postgresql package");
  const server = await startPostgres();
  try {
    if (server.kind !== "postgres") {
      throw new Error(`pg_dump needs a PostgreSQL server, but startPostgres() gave ${server.kind} (TEST_DB / TEST_DATABASE_URL?)`);
    }
    const url = await createTestDatabase(server.url, { empty: true });
    try {
      log(`migrating a fresh database and dumping it with ${pgDump.path}`);
      return await migratedSchema(url, pgDump);
    } finally {
      await dropTestDatabase(url);
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  const text = await buildSchemaDump((m) => console.log(m));
  await writeFile(SCHEMA_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)} (${text.split("\n").length - 1} lines)`);
}

runIfMain(import.meta.url, main);
