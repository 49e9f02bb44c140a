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
  // Rows are compared too, but an empty table's COPY header only repeats a difference of its columns.
  const tables = new Set(out.filter((d) => d.entry.type === "TABLE").map((d) => `${d.entry.schema}.${d.entry.name}`));
  const noRows = (body: string | null) => body !== null && /^COPY [^\n]*\n\\\.$/.test(body);
  return out.filter(
    (d) => !(d.entry.type === "TABLE DATA" && tables.has(`${d.entry.schema}.${d.entry.name}`) && noRows(d.migrations) && noRows(d.schemas)),
  );
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
  /** The object the entry is about, in words: "function private.create_competition(...)", "table public.fixtures". */
  object: string;
  /** file:line of the definition in supabase/schemas/, if any. */
  subjectFile: string | null;
  /** The last migration that creates, alters, drops, comments on or grants on the object, if any. */
  lastMigration: string | null;
}

const ident = (name: string) => name.replace(/^"(.*)"$/, "$1").replace(/""/g, '"');
const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const rx = (source: string) => new RegExp(source, "i");
/** Anything up to the end of the statement (grant lists name several objects). */
const STMT = "[^;]*?";

interface Patterns {
  object: string;
  /** The statement that defines the object: found in supabase/schemas/. */
  define: RegExp[];
  /** Every statement that changes it: the last one found in supabase/migrations/. */
  touch: RegExp[];
}

/** How to find an entry's object in SQL files. */
function patternsFor(e: Entry): Patterns {
  const s = e.schema;
  const q = (name: string) => `${re(s)}\\.${re(ident(name))}\\b`;
  const relation = (name: string, kind = "table"): Patterns => {
    const create = rx(
      `create\\s+(?:or\\s+replace\\s+)?(?:unlogged\\s+|materialized\\s+)?(?:table|view|sequence)\\s+(?:if\\s+not\\s+exists\\s+)?${q(name)}`,
    );
    return {
      object: `${kind} ${s}.${ident(name)}`,
      define: [create],
      touch: [create, rx(`(?:alter|drop)\\s+(?:table|view|materialized\\s+view|sequence)\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?${q(name)}`)],
    };
  };
  const fn = (signature: string): Patterns => {
    const name = signature.replace(/\(.*$/s, "");
    const create = rx(`create\\s+(?:or\\s+replace\\s+)?(?:function|procedure)\\s+${re(s)}\\.${re(ident(name))}\\s*\\(`);
    return {
      object: `function ${s}.${signature}`,
      define: [create],
      touch: [create, rx(`(?:alter|drop)\\s+(?:function|procedure)\\s+(?:if\\s+exists\\s+)?${re(s)}\\.${re(ident(name))}\\s*\\(`)],
    };
  };
  const named = (kind: string, name: string, on: Patterns, createPrefix: string): Patterns => {
    const create = rx(`${createPrefix}\\s+${re(ident(name))}\\b`);
    return {
      object: `${kind} ${ident(name)} on ${on.object}`,
      define: [create, ...on.define],
      touch: [create, rx(`(?:alter|drop)\\s+${kind}\\s+(?:if\\s+exists\\s+)?${re(ident(name))}\\b`)],
    };
  };
  const [first, second] = e.name.split(" ");
  switch (e.type) {
    case "TABLE":
      return relation(e.name);
    case "VIEW":
    case "MATERIALIZED VIEW":
      return relation(e.name, "view");
    case "SEQUENCE": {
      const table = sequenceTable(e);
      return table ? relation(table) : relation(e.name, "sequence");
    }
    case "SEQUENCE OWNED BY":
    case "SEQUENCE SET":
      return relation(e.name, "sequence");
    case "TABLE DATA":
      return { ...relation(e.name), object: `rows of table ${s}.${ident(e.name)}` };
    case "FUNCTION":
    case "PROCEDURE":
      return fn(e.name);
    case "INDEX": {
      const table = /\bON (?:ONLY )?[^.\s]+\.("(?:[^"]|"")+"|[^\s(]+)/.exec(e.body)?.[1];
      return named(
        "index",
        e.name,
        table ? relation(table) : { object: s, define: [], touch: [] },
        "create\\s+(?:unique\\s+)?index\\s+(?:concurrently\\s+)?(?:if\\s+not\\s+exists\\s+)?",
      );
    }
    case "TRIGGER":
      return named("trigger", second, relation(first), "create\\s+(?:or\\s+replace\\s+)?(?:constraint\\s+)?trigger");
    case "POLICY":
      return named("policy", second, relation(first), "create\\s+policy");
    case "CONSTRAINT":
    case "FK CONSTRAINT":
    case "CHECK CONSTRAINT": {
      const on = relation(first);
      const p = named("constraint", second, on, "constraint");
      return { ...p, touch: [...p.touch, ...on.touch] };
    }
    case "DEFAULT":
    case "ROW SECURITY":
    case "RULE": {
      const on = relation(first);
      return { ...on, object: `${e.type.toLowerCase()} of ${on.object}` };
    }
    case "SCHEMA":
    case "EXTENSION": {
      const kind = e.type.toLowerCase();
      const create = rx(`create\\s+${kind}\\s+(?:if\\s+not\\s+exists\\s+)?${re(e.name)}\\b`);
      return { object: `${kind} ${e.name}`, define: [create], touch: [create, rx(`(?:alter|drop)\\s+${kind}\\s+${re(e.name)}\\b`)] };
    }
    case "ACL":
    case "COMMENT": {
      const m = /^([A-Z ]+?) (.*)$/.exec(e.name);
      if (!m) return { object: `${e.type.toLowerCase()} ${e.name}`, define: [], touch: [] };
      const [, kind, name] = m;
      const inner =
        kind === "SCHEMA" || kind === "EXTENSION"
          ? patternsFor({ ...e, type: kind, name, schema: "-" })
          : kind === "FUNCTION" || kind === "PROCEDURE"
            ? fn(name)
            : kind === "COLUMN"
              ? { ...relation(name.split(".")[0]), object: `column ${s}.${name}` }
              : relation(name, kind.toLowerCase());
      const target =
        kind === "SCHEMA" || kind === "EXTENSION"
          ? `${kind.toLowerCase()}\\s+${re(name)}\\b`
          : kind === "FUNCTION" || kind === "PROCEDURE"
            ? `${re(s)}\\.${re(ident(name.replace(/\(.*$/s, "")))}\\s*\\(`
            : `${re(s)}\\.${re(ident(name.split(".")[0]))}\\b`;
      const statement =
        e.type === "ACL"
          ? [
              rx(`(?:grant|revoke)\\s${STMT}\\bon\\s${STMT}${target}`),
              rx(`(?:grant|revoke)\\s${STMT}\\bon\\s+all\\s+\\w+\\s+in\\s+schema\\s+${re(s)}\\b`),
            ]
          : [rx(`comment\\s+on\\s+\\w+(?:\\s+view)?\\s+${target}`)];
      return {
        object: `${e.type === "ACL" ? "grants of" : "comment on"} ${inner.object}`,
        define: [...statement, ...inner.define],
        touch: statement,
      };
    }
    default:
      return { object: `${e.type.toLowerCase()} ${s}.${e.name}`, define: [], touch: [] };
  }
}

/** An identity sequence belongs to its table (pg_dump prints it as ALTER TABLE ... ADD GENERATED). */
function sequenceTable(e: Entry): string | null {
  const m = /ALTER TABLE (?:ONLY )?[^.\s]+\.("(?:[^"]|"")+"|[^\s]+) ALTER COLUMN/.exec(e.body);
  return m ? m[1] : null;
}

interface Hit {
  file: string;
  line: number;
}

/** Every match of the patterns in the files, in file order, then position. */
function hits(files: SqlFile[], patterns: RegExp[]): Hit[] {
  const out: (Hit & { at: number; order: number })[] = [];
  files.forEach((f, order) => {
    for (const pattern of patterns) {
      for (const m of f.text.matchAll(new RegExp(pattern.source, "gi"))) {
        out.push({ file: f.file, line: f.text.slice(0, m.index).split("\n").length, at: m.index, order });
      }
    }
  });
  return out.sort((a, b) => a.order - b.order || a.at - b.at).map(({ file, line }) => ({ file, line }));
}

/** The object an entry is about, its definition in the subject files and the last migration that changed it. */
export function locate(e: Entry, subjectFiles: SqlFile[], migrationFiles: SqlFile[]): Location {
  const p = patternsFor(e);
  let subject: Hit | undefined;
  for (const pattern of p.define) if (!subject) subject = hits(subjectFiles, [pattern])[0];
  const migration = hits(migrationFiles, p.touch).at(-1);
  return {
    object: p.object,
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
  const located = diffs
    .map((d) => ({ d, where: locate(d.entry, subjectFiles, migrationFiles) }))
    // the entries of one object together: a function with its grants and comment, a table with its constraints
    .sort((x, y) => (x.where.subjectFile ?? "~").localeCompare(y.where.subjectFile ?? "~") || x.d.key.localeCompare(y.d.key));
  for (const { d, where } of located) {
    const state =
      d.schemas === null ? "only in the migrations' database" : d.migrations === null ? "only in the schema files' database" : "differs";
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
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push({ op: " ", line: x[i++] });
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ op: "-", line: x[i++] });
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
