import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import type { SessionUser } from "~/db/types";
import { ReleaseNotesSection, type NoteFormValues } from "~/components/admin/ReleaseNotesSection";
import { ADMIN_PATHS } from "~/components/admin/sections";
import { useActionToast } from "~/components/admin/useActionToast";
import { intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { isCalendarDate, todayIn } from "~/lib/validation";
import {
  createReleaseNote,
  deleteReleaseNote,
  listReleaseNotes,
  setReleaseNotePublished,
  updateReleaseNote,
} from "~/models/release-notes.server";
import { redirectWithToast } from "~/toast.server";
import { z } from "zod";

/** Admin panel, Release Notes (/admin/release-notes): list, create, edit, publish / unpublish, delete. */

const PATH = ADMIN_PATHS.notes;

const NOTE_REQUIRED = "Please fill in all required fields";
const required = (max: number, tooLong: string) => z.string({ error: NOTE_REQUIRED }).trim().min(1, NOTE_REQUIRED).max(max, tooLong);

const ReleaseNoteSchema = z.object({
  version: required(50, "Version must be at most 50 characters."),
  title: required(200, "Title must be at most 200 characters."),
  content: required(100000, "Content must be at most 100,000 characters."),
  releaseDate: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || isCalendarDate(v), "Please enter a valid release date."),
});

const NoteIdSchema = z.uuid();

const uuidParam = (v: string | null) => (v && NoteIdSchema.safeParse(v).success ? v : null);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  const q = new URL(request.url).searchParams;
  const notes = await listReleaseNotes(context.db, user.id);
  return {
    notes,
    today: todayIn(context.now, user.timeZone),
    editNoteId: uuidParam(q.get("editNote")),
    confirmDeleteId: uuidParam(q.get("confirmDelete")),
  };
}

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v : "";
};

/** The submitted note, echoed back so a refused form keeps what was typed (without JavaScript too). */
const submitted = (form: FormData): NoteFormValues => ({
  version: text(form, "version"),
  title: text(form, "title"),
  content: text(form, "content"),
  releaseDate: text(form, "releaseDate"),
});

type Ctx = { form: FormData; user: SessionUser; context: AppLoadContext };

async function createNoteAction({ form, user, context }: Ctx) {
  const intent = "create-note";
  const echo = { intent, id: null, values: submitted(form) };
  const parsed = parseForm(form, ReleaseNoteSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, echo);
  const result = await createReleaseNote(context.db, user.id, parsed.data);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  if (result.ok) return redirectWithToast(context.env, PATH, { type: "success", message: result.message });
  return invalid({}, result.message, result.status, echo);
}

async function updateNoteAction({ form, user, context }: Ctx) {
  const intent = "update-note";
  const id = text(form, "id");
  const echo = { intent, id, values: submitted(form) };
  if (!NoteIdSchema.safeParse(id).success)
    return invalid({ id: "Failed to update release note" }, "Failed to update release note", 400, echo);
  const parsed = parseForm(form, ReleaseNoteSchema);
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, echo);
  const result = await updateReleaseNote(context.db, user.id, id, parsed.data);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  if (result.ok) return redirectWithToast(context.env, PATH, { type: "success", message: result.message });
  return invalid({}, result.message, result.status, echo);
}

async function publishNoteAction({ form, user, context }: Ctx) {
  const id = text(form, "id");
  const fallback = "Failed to update publish status";
  if (!NoteIdSchema.safeParse(id).success) return invalid({ id: fallback }, fallback, 400, { intent: "publish-note", id });
  const result = await setReleaseNotePublished(context.db, user.id, id, text(form, "published") === "true");
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, PATH, { type: result.ok ? "success" : "error", message: result.message });
}

async function deleteNoteAction({ form, user, context }: Ctx) {
  const id = text(form, "id");
  const fallback = "Failed to delete release note";
  if (!NoteIdSchema.safeParse(id).success) return invalid({ id: fallback }, fallback, 400, { intent: "delete-note", id });
  const result = await deleteReleaseNote(context.db, user.id, id);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return redirectWithToast(context.env, PATH, { type: result.ok ? "success" : "error", message: result.message });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  const ctx = { form, user, context };
  switch (intentOf(form)) {
    case "create-note":
      return createNoteAction(ctx);
    case "update-note":
      return updateNoteAction(ctx);
    case "publish-note":
      return publishNoteAction(ctx);
    case "delete-note":
      return deleteNoteAction(ctx);
    default:
      return unknownIntent();
  }
}

type ActionData = { intent: string; message: string | null; id?: string | null; values?: NoteFormValues };

export default function AdminReleaseNotes() {
  const { notes, today, editNoteId, confirmDeleteId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  useActionToast(actionData);
  const noteError =
    actionData && (actionData.intent === "create-note" || actionData.intent === "update-note")
      ? { intent: actionData.intent, id: actionData.id ?? null, message: actionData.message ?? "", values: actionData.values ?? {} }
      : null;
  return <ReleaseNotesSection notes={notes} editId={editNoteId} confirmDeleteId={confirmDeleteId} today={today} formError={noteError} />;
}
