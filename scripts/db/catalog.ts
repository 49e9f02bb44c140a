/**
 * Catalog comparison of two databases: what tests/db/schemas-match-migrations.test.ts and `npm run db:diff` use
 * to prove that supabase/migrations/ and supabase/schemas/ define the same database.
 *
 * A catalog is pg_dump's view of a database, split into its entries (`-- Name: ...; Type: ...; Schema: ...`):
 * every schema, extension, table (columns, defaults, storage parameters), constraint, index, trigger, row-level
 * security switch, policy, view, function (its whole text, body byte for byte), sequence, comment and grant
 * (table, column, function, schema), plus the rows of every table (--data-only) except the migration history's
 * (supabase_migrations.schema_migrations: the runner writes it, the schema files do not). Owners are left out
 * (--no-owner: they depend on who ran the SQL); so are pg_dump's banner, session settings and per-run \restrict
 * keys. The order of grants within one object is not compared (the same privileges granted in another order give
 * the same rights); everything else is compared as text.
 *
 * A difference is reported with the object it belongs to and where that object is defined: the subject file and
 * line in supabase/schemas/, and the migration that last defines it (locate()).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface PgDump {
  path: string;
  /** Major version, e.g. 15. */
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

/** The migration runner's history: its rows differ by nature (the schema files record none, or others). */
export const HISTORY_TABLE = "supabase_migrations.schema_migrations";

// ---------------------------------------------------------------------------------------------------------
// Dumping and parsing

/** One pg_dump archive entry: its `-- Name: ...; Type: ...; Schema: ...` header and its statements. */
export interface Entry {
  name: string;
  type: string;
  /** "-" for objects outside any schema (schemas, extensions, their comments and grants). */
  schema: string;
  body: string;
}

const HEADER = /^-- (?:Data for )?Name: (.*); Type: (.*); Schema: ([^;]*)(?:; Owner: .*)?$/;

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
    entries.push({ name, type, schema, body });
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

/** `type schema.name`: an entry's identity in a catalog. */
export const entryKey = (e: Pick<Entry, "type" | "schema" | "name">) => `${e.type} ${e.schema === "-" ? "" : `${e.schema}.`}${e.name}`;

/** Normalised text of an entry: the grants of one ACL entry in a stable order (their order does not matter). */
function normalisedBody(e: Entry): string {
  if (e.type !== "ACL") return e.body;
  return e.body
    .split("\n")
    .filter((l) => l.trim() !== "")
    .sort()
    .join("\n");
}

export type Catalog = Map<string, Entry>;

/** The catalog of the database at `url` (schema and data; see the header). */
export async function dumpCatalog(url: string, pgDump: PgDump): Promise<Catalog> {
  const run = async (args: string[]) =>
    (await execFileAsync(pgDump.path, [...args, "--no-owner", `--dbname=${url}`], { maxBuffer: 256 * 1024 * 1024 })).stdout;
  const schema = parseDump(await run(["--schema-only"]));
  if (!schema.some((e) => e.type === "TABLE")) throw new Error("pg_dump printed no table: is the database built?");
  const data = parseDump(await run(["--data-only", `--exclude-table-data=${HISTORY_TABLE}`]));
  const catalog: Catalog = new Map();
  for (const e of [...schema, ...data]) {
    let key = entryKey(e);
    for (let n = 2; catalog.has(key); n++) key = `${entryKey(e)} #${n}`;
    catalog.set(key, { ...e, body: normalisedBody(e) });
  }
  return catalog;
}

// ---------------------------------------------------------------------------------------------------------
// Comparing

export interface Difference {
  key: string;
  entry: Entry;
  /** Text in the database built by the migrations / by the schema files; null: the entry is not there. */
  migrations: string | null;
  schemas: string | null;
}

/** Every entry whose text differs, or that only one of the two catalogs has; sorted by key. */
export function compareCatalogs(migrations: Catalog, schemas: Catalog): Difference[] {
  const keys = [...new Set([...migrations.keys(), ...schemas.keys()])].sort();
  const out: Difference[] = [];
  for (const key of keys) {
    const a = migrations.get(key);
    const b = schemas.get(key);
    if (a && b && a.body === b.body) continue;
    out.push({ key, entry: (a ?? b)!, migrations: a?.body ?? null, schemas: b?.body ?? null });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Locating: which object an entry belongs to, and where that object is defined

export interface SqlFile {
  /** Path relative to the repository root, e.g. supabase/schemas/40_picks.sql. */
  file: string;
  text: string;
}

export function readSqlFiles(files: string[], root: string): SqlFile[] {
  return files.map((f) => ({ file: path.relative(root, f), text: readFileSync(f, "utf8") }));
}

export interface Location {
  /** The object the entry is about, in words: "function private.create_competition", "table public.fixtures". */
  object: string;
  /** file:line of the definition in supabase/schemas/, if any. */
  subjectFile: string | null;
  /** The last migration that defines (or mentions) it, if any. */
  lastMigration: string | null;
}

const ident = (name: string) => name.replace(/^"(.*)"$/, "$1");
const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Patterns that find the statement defining an entry's object, most specific first. */
function definitionPatterns(e: Entry): { object: string; patterns: RegExp[] } {
  const s = e.schema;
  const q = (name: string) => `${re(s)}\\.${re(ident(name))}`;
  const table = (name: string) => ({
    object: `table ${s}.${ident(name)}`,
    patterns: [new RegExp(`create\\s+(?:unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?${q(name)}\\b`, "i")],
  });
  const relation = (name: string) => ({
    object: `${s}.${ident(name)}`,
    patterns: [
      new RegExp(`create\\s+(?:unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?${q(name)}\\b`, "i"),
      new RegExp(`create\\s+(?:or\\s+replace\\s+)?(?:materialized\\s+)?view\\s+${q(name)}\\b`, "i"),
      new RegExp(`create\\s+sequence\\s+(?:if\\s+not\\s+exists\\s+)?${q(name)}\\b`, "i"),
    ],
  });
  const fn = (signature: string) => {
    const name = signature.replace(/\(.*$/s, "");
    return {
      object: `function ${s}.${signature.replace(/\s*\(/, "(")}`,
      patterns: [new RegExp(`create\\s+(?:or\\s+replace\\s+)?(?:function|procedure)\\s+${q(name)}\\s*\\(`, "i")],
    };
  };
  const [first, second] = e.name.split(" ");
  switch (e.type) {
    case "TABLE":
      return table(e.name);
    case "VIEW":
    case "MATERIALIZED VIEW":
    case "SEQUENCE":
    case "SEQUENCE OWNED BY":
    case "TABLE DATA":
    case "SEQUENCE SET":
      return relation(e.type === "SEQUENCE" || e.type === "SEQUENCE SET" ? sequenceTable(e) ?? e.name : e.name);
    case "FUNCTION":
    case "PROCEDURE":
      return fn(e.name);
    case "INDEX":
      return {
        object: `index ${s}.${e.name}`,
        patterns: [new RegExp(`create\\s+(?:unique\\s+)?index\\s+(?:concurrently\\s+)?(?:if\\s+not\\s+exists\\s+)?${re(ident(e.name))}\\b`, "i")],
      };
    case "TRIGGER":
      return {
        object: `trigger ${second} on ${s}.${first}`,
        patterns: [new RegExp(`create\\s+(?:or\\s+replace\\s+)?(?:constraint\\s+)?trigger\\s+${re(ident(second))}\\b`, "i")],
      };
    case "POLICY":
      return {
        object: `policy ${second} on ${s}.${first}`,
        patterns: [new RegExp(`create\\s+policy\\s+${re(ident(second))}\\b`, "i"), ...table(first).patterns],
      };
    case "CONSTRAINT":
    case "FK CONSTRAINT":
    case "CHECK CONSTRAINT":
      return {
        object: `constraint ${second} on ${s}.${first}`,
        patterns: [new RegExp(`constraint\\s+${re(ident(second))}\\b`, "i"), ...table(first).patterns],
      };
    case "DEFAULT":
    case "ROW SECURITY":
    case "RULE":
      return { ...table(first), object: `${e.type.toLowerCase()} of table ${s}.${ident(first)}` };
    case "SCHEMA":
      return { object: `schema ${e.name}`, patterns: [new RegExp(`create\\s+schema\\s+(?:if\\s+not\\s+exists\\s+)?${re(e.name)}\\b`, "i")] };
    case "EXTENSION":
      return { object: `extension ${e.name}`, patterns: [new RegExp(`create\\s+extension\\s+(?:if\\s+not\\s+exists\\s+)?${re(e.name)}\\b`, "i")] };
    case "ACL":
    case "COMMENT": {
      const m = /^([A-Z ]+?) (.*)$/.exec(e.name);
      const what = e.type === "ACL" ? "grants of" : "comment on";
      if (!m) return { object: `${what} ${e.name}`, patterns: [] };
      const [, kind, name] = m;
      const inner = (() => {
        if (kind === "SCHEMA") return definitionPatterns({ ...e, type: "SCHEMA", name, schema: "-" });
        if (kind === "EXTENSION") return definitionPatterns({ ...e, type: "EXTENSION", name, schema: "-" });
        if (kind === "FUNCTION" || kind === "PROCEDURE") return fn(name);
        if (kind === "COLUMN") return table(name.split(".")[0]);
        return relation(name);
      })();
      return { object: `${what} ${kind === "COLUMN" ? `column ${s}.${name}` : inner.object}`, patterns: inner.patterns };
    }
    default:
      return { object: `${e.type.toLowerCase()} ${s}.${e.name}`, patterns: [] };
  }
}

/** An identity sequence belongs to its table (pg_dump prints it as ALTER TABLE ... ADD GENERATED). */
function sequenceTable(e: Entry): string | null {
  const m = /ALTER TABLE (?:ONLY )?[^.\s]+\.("(?:[^"]|"")+"|[^\s]+) ALTER COLUMN/.exec(e.body);
  return m ? m[1] : null;
}

function findIn(files: SqlFile[], patterns: RegExp[]): { file: string; line: number } | null {
  for (const pattern of patterns) {
    let found: { file: string; line: number } | null = null;
    for (const f of files) {
      const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g");
      for (const m of f.text.matchAll(global)) found = { file: f.file, line: f.text.slice(0, m.index).split("\n").length };
    }
    if (found) return found; // the last match: for migrations, the latest definition
  }
  return null;
}

export function locate(e: Entry, subjectFiles: SqlFile[], migrationFiles: SqlFile[]): Location {
  const { object, patterns } = definitionPatterns(e);
  const subject = findIn(subjectFiles, patterns);
  const migration = findIn(migrationFiles, patterns);
  return {
    object,
    subjectFile: subject ? `${subject.file}:${subject.line}` : null,
    lastMigration: migration ? migration.file : null,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Reporting

/** A readable report: per difference, the object, where it lives, and a line diff (- migrations, + schema files). */
export function formatDifferences(diffs: Difference[], subjectFiles: SqlFile[], migrationFiles: SqlFile[], maxLines = 40): string {
  const out: string[] = [
    `${diffs.length} difference(s) between the database the migrations build and the one supabase/schemas/ builds`,
    "(- what the migrations give, + what the schema files give):",
  ];
  for (const d of diffs) {
    const where = locate(d.entry, subjectFiles, migrationFiles);
    const state =
      d.schemas === null
        ? "only in the migrations' database"
        : d.migrations === null
          ? "only in the schema files' database"
          : "differs";
    out.push(
      "",
      `* ${where.object} [${d.entry.type}] ${state}`,
      `    subject file:    ${where.subjectFile ?? "(none: add it to the file of its subject)"}`,
      `    last migration:  ${where.lastMigration ?? "(none)"}`,
    );
    const lines = lineDiff(d.migrations ?? "", d.schemas ?? "");
    const shown = lines.slice(0, maxLines).map((l) => `    ${l}`);
    out.push(...shown);
    if (lines.length > maxLines) out.push(`    ... ${lines.length - maxLines} more line(s)`);
  }
  return out.join("\n");
}

/** A minimal line diff with 2 lines of context: "  same", "- only in a", "+ only in b". */
export function lineDiff(a: string, b: string, context = 2): string[] {
  const x = a === "" ? [] : a.split("\n");
  const y = b === "" ? [] : b.split("\n");
  // Longest common subsequence table (entries are at most a few hundred lines).
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: { op: " " | "-" | "+"; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) ops.push({ op: " ", line: x[i++] }), j++;
    else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ op: "-", line: x[i++] });
    else ops.push({ op: "+", line: y[j++] });
  }
  const keep = ops.map((o, k) => o.op !== " " || ops.slice(Math.max(0, k - context), k + context + 1).some((n) => n.op !== " "));
  const out: string[] = [];
  ops.forEach((o, k) => {
    if (keep[k]) out.push(`${o.op} ${o.line}`);
    else if (keep[k - 1]) out.push("  ...");
  });
  return out;
}
