import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireAdmin } from "~/admin.server";
import { CreateCompetitionSection, type CreateCompetitionValues } from "~/components/admin/CreateCompetitionSection";
import { CsvUploadSection, type UploadResult } from "~/components/admin/CsvUploadSection";
import { ReleaseNotesSection, type NoteFormValues } from "~/components/admin/ReleaseNotesSection";
import { ResultsSection } from "~/components/admin/ResultsSection";
import { useToast } from "~/components/Toaster";
import { CREATE_LEAGUES, CREATE_SEASONS } from "~/lib/competition-options";
import { CSV_MAX_BYTES, CSV_TOO_LARGE, parseFixturesCsv, uploadSummary } from "~/lib/csv";
import { todayIn } from "~/lib/validation";
import { adminCompetitionSchema, adminCreateCompetition, CREATED, REQUIRED } from "~/models/admin-competitions.server";
import { loadResults, PostponeSchema, saveResult, SaveResultSchema, setPostponed, upsertFixtureRows } from "~/models/fixtures.server";
import {
  createReleaseNote,
  deleteReleaseNote,
  listReleaseNotes,
  NOTE_REQUIRED,
  NoteIdSchema,
  ReleaseNoteSchema,
  setReleaseNotePublished,
  updateReleaseNote,
} from "~/models/release-notes.server";
import { redirectWithToast } from "~/toast.server";
import css from "~/styles/admin.css?url";

export const meta: MetaFunction = () => [{ title: "Admin Panel | FootyCoach" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: css }];

const SECTIONS = [
  { id: "results", label: "Results" },
  { id: "create", label: "Create Competition" },
  { id: "upload", label: "CSV Upload" },
  { id: "notes", label: "Release Notes" },
] as const;
type Section = (typeof SECTIONS)[number]["id"];
const PATH = "/admin/fixtures";

function sectionOf(value: string | null): Section {
  return SECTIONS.some((s) => s.id === value) ? (value as Section) : "results";
}

function oneOf<T extends string>(value: string | null, list: readonly T[], fallback: T): T {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : fallback;
}

const idParam = (v: string | null) => (v && /^\d{1,15}$/.test(v) ? v : null);
const uuidParam = (v: string | null) => (v && NoteIdSchema.safeParse(v).success ? v : null);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  const url = new URL(request.url);
  const q = url.searchParams;
  const section = sectionOf(q.get("section"));
  const today = todayIn(context.now, user.timeZone);
  const base = { section, today, results: null, notes: null, editId: null, editNoteId: null, confirmDeleteId: null };

  if (section === "results") {
    const md = Number(q.get("md"));
    const results = await loadResults(context.db, user.id, {
      league: oneOf(q.get("league"), CREATE_LEAGUES, "Premier League"),
      season: oneOf(q.get("season"), CREATE_SEASONS, "2025/26"),
      matchDay: Number.isInteger(md) && md >= 1 && md <= 60 ? md : null,
      team: (q.get("team") ?? "").trim().slice(0, 60),
      timeZone: user.timeZone,
    });
    return { ...base, results, editId: idParam(q.get("edit")) };
  }
  if (section === "notes") {
    const notes = await listReleaseNotes(context.db, user.id);
    return { ...base, notes, editNoteId: uuidParam(q.get("editNote")), confirmDeleteId: uuidParam(q.get("confirmDelete")) };
  }
  return base;
}

/** Where a results form returns to: the admin page only, without the Edit unlock. */
function resultsBack(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || !value.startsWith(`${PATH}?`)) return `${PATH}?section=results`;
  const url = new URL(value, "http://x");
  url.searchParams.delete("edit");
  url.searchParams.set("section", "results");
  return `${PATH}?${url.searchParams.toString()}`;
}

const str = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v : "";
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ intent: "unknown" as const, message: "The request could not be read." }, { status: 400 });
  }
  const intent = str(form, "intent");
  const env = context.env;

  switch (intent) {
    case "save-result": {
      const back = resultsBack(form.get("returnTo"));
      const fixtureId = str(form, "fixtureId");
      const parsed = SaveResultSchema.safeParse({ fixtureId, homeScore: str(form, "homeScore"), awayScore: str(form, "awayScore") });
      if (!parsed.success) {
        return data({ intent, fixtureId, message: parsed.error.issues[0]?.message ?? "Failed to save result." }, { status: 400 });
      }
      const result = await saveResult(context.db, user.id, parsed.data);
      if (result.ok) return redirectWithToast(env, back, { type: "success", message: result.message });
      return data({ intent, fixtureId, message: result.message }, { status: result.status });
    }

    case "postpone": {
      const back = resultsBack(form.get("returnTo"));
      const fixtureId = str(form, "fixtureId");
      const parsed = PostponeSchema.safeParse({ fixtureId, postponed: str(form, "postponed") });
      if (!parsed.success) return data({ intent, fixtureId, message: "Failed to update fixture." }, { status: 400 });
      const result = await setPostponed(context.db, user.id, parsed.data);
      if (result.ok) return redirectWithToast(env, back, { type: "success", message: result.message });
      return data({ intent, fixtureId, message: result.message }, { status: result.status });
    }

    case "create-competition": {
      const values: CreateCompetitionValues = {
        name: str(form, "name"),
        type: str(form, "type"),
        league: str(form, "league"),
        season: str(form, "season"),
        startDate: str(form, "startDate"),
        startMatchDay: str(form, "startMatchDay"),
        prize: str(form, "prize"),
      };
      const parsed = adminCompetitionSchema(todayIn(context.now, user.timeZone)).safeParse(values);
      if (!parsed.success) {
        return data({ intent, message: parsed.error.issues[0]?.message ?? REQUIRED, values }, { status: 400 });
      }
      const result = await adminCreateCompetition(context.db, user.id, parsed.data);
      if (result.ok) return redirectWithToast(env, `${PATH}?section=create`, { type: "success", message: CREATED });
      return data({ intent, message: result.message, values }, { status: result.status });
    }

    case "upload-csv": {
      const file = form.get("file");
      const fail = (message: string, status = 400) => data<UploadResult>({ intent, ok: false, message }, { status });
      if (!file || typeof file === "string" || file.size === 0) return fail("Please choose a CSV file.");
      if (file.size > CSV_MAX_BYTES) return fail(CSV_TOO_LARGE, 413);
      let text: string;
      try {
        text = await file.text();
      } catch {
        return fail("CSV parse error: the file could not be read.");
      }
      const parsed = parseFixturesCsv(text);
      if (!parsed.ok) return fail(parsed.message, parsed.message === CSV_TOO_LARGE ? 413 : 400);
      try {
        const saved = await upsertFixtureRows(context.db, user.id, parsed.rows);
        const failed = [...parsed.errors, ...saved.failed].sort((a, b) => a.line - b.line);
        return data<UploadResult>({ intent, ok: true, message: uploadSummary(saved.succeeded, failed.length), failed });
      } catch (error) {
        if (error instanceof Response) throw error;
        const code = (error as { code?: string })?.code;
        console.error("upsert_fixtures failed:", (error as Error)?.message ?? error);
        return fail(code === "42501" ? "Access denied. Admins only." : "Failed to upload fixtures.", code === "42501" ? 403 : 500);
      }
    }

    case "create-note":
    case "update-note": {
      const values: NoteFormValues = {
        version: str(form, "version"),
        title: str(form, "title"),
        content: str(form, "content"),
        releaseDate: str(form, "releaseDate"),
      };
      const id = intent === "update-note" ? str(form, "id") : null;
      const fallback = intent === "create-note" ? "Failed to create release note" : "Failed to update release note";
      if (id !== null && !NoteIdSchema.safeParse(id).success) return data({ intent, id, message: fallback, values }, { status: 400 });
      const parsed = ReleaseNoteSchema.safeParse(values);
      if (!parsed.success) {
        return data({ intent, id, message: parsed.error.issues[0]?.message ?? NOTE_REQUIRED, values }, { status: 400 });
      }
      const result = id ? await updateReleaseNote(context.db, user.id, id, parsed.data) : await createReleaseNote(context.db, user.id, parsed.data);
      if (result.ok) return redirectWithToast(env, `${PATH}?section=notes`, { type: "success", message: result.message });
      return data({ intent, id, message: result.message, values }, { status: result.status });
    }

    case "publish-note":
    case "delete-note": {
      const id = str(form, "id");
      const fallback = intent === "publish-note" ? "Failed to update publish status" : "Failed to delete release note";
      if (!NoteIdSchema.safeParse(id).success) return data({ intent, id, message: fallback }, { status: 400 });
      const result =
        intent === "publish-note"
          ? await setReleaseNotePublished(context.db, user.id, id, str(form, "published") === "true")
          : await deleteReleaseNote(context.db, user.id, id);
      return redirectWithToast(env, `${PATH}?section=notes`, { type: result.ok ? "success" : "error", message: result.message });
    }
  }
  return data({ intent: "unknown" as const, message: "Unknown action." }, { status: 400 });
}

type ActionData = {
  intent: string;
  message: string;
  ok?: boolean;
  fixtureId?: string;
  id?: string | null;
  values?: Record<string, string>;
  failed?: { line: number; reason: string }[];
};

// Missing input is a hint (info toast); everything else the server refused is an error.
const INFO_MESSAGES = new Set(["Please fill in all required fields.", "Please fill in all required fields"]);

export default function AdminPanel() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const location = useLocation();
  const toast = useToast();
  const shown = useRef<unknown>(null);

  // Errors returned by the action (4xx/5xx with the message) also appear as toasts once JavaScript runs.
  useEffect(() => {
    if (!actionData || shown.current === actionData) return;
    shown.current = actionData;
    if (actionData.intent === "upload-csv" && actionData.ok) {
      toast.show(actionData.failed && actionData.failed.length > 0 ? "info" : "success", actionData.message);
    } else if (actionData.message) {
      toast.show(INFO_MESSAGES.has(actionData.message) ? "info" : "error", actionData.message);
    }
  }, [actionData, toast]);

  const here = `${location.pathname}${location.search}`;
  const resultsHere = (() => {
    const url = new URL(here, "http://x");
    url.searchParams.delete("edit");
    url.searchParams.set("section", "results");
    return `${PATH}?${url.searchParams.toString()}`;
  })();
  const forIntent = (...intents: string[]) => (actionData && intents.includes(actionData.intent) ? actionData : null);
  const resultError = forIntent("save-result", "postpone");
  const createError = forIntent("create-competition");
  const upload = forIntent("upload-csv") as UploadResult | null;
  const noteError = forIntent("create-note", "update-note");

  return (
    <div className="container admin-page">
      <header className="page-header">
        <h1>Admin Panel</h1>
      </header>
      <nav aria-label="Admin sections" className="admin-tabs">
        <ul className="tabs">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <Link to={`${PATH}?section=${s.id}`} aria-current={s.id === d.section ? "page" : undefined} preventScrollReset>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {d.section === "results" && d.results ? (
        <ResultsSection
          results={d.results}
          editId={d.editId}
          here={resultsHere}
          rowError={resultError?.fixtureId ? { fixtureId: resultError.fixtureId, message: resultError.message } : null}
        />
      ) : null}
      {d.section === "create" ? (
        <CreateCompetitionSection today={d.today} error={createError?.message ?? null} values={(createError?.values as CreateCompetitionValues) ?? null} />
      ) : null}
      {d.section === "upload" ? <CsvUploadSection result={upload} /> : null}
      {d.section === "notes" && d.notes ? (
        <ReleaseNotesSection
          notes={d.notes}
          editId={d.editNoteId}
          confirmDeleteId={d.confirmDeleteId}
          today={d.today}
          formError={noteError ? { intent: noteError.intent, id: noteError.id ?? null, message: noteError.message, values: (noteError.values ?? {}) as NoteFormValues } : null}
        />
      ) : null}
    </div>
  );
}
