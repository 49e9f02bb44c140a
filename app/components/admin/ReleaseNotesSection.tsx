import { Form, Link, useNavigate } from "@remix-run/react";
import { ConfirmDialog } from "~/components/ConfirmDialog";
import { Field, FormError } from "~/components/Field";
import { usePending } from "~/components/usePending";
import { Markdown } from "./Markdown";
import { ADMIN_PATHS } from "./sections";
import { dateFormat } from "~/lib/date-format";
// The loader hands listReleaseNotes' rows to this section unchanged, so their type is the props' type.
import type { ReleaseNote } from "~/models/release-notes.server";

export interface NoteFormValues {
  version?: string;
  title?: string;
  content?: string;
  releaseDate?: string;
}

interface Props {
  notes: ReleaseNote[];
  editId: string | null;
  confirmDeleteId: string | null;
  today: string;
  formError: { intent: string; id: string | null; message: string; values: NoteFormValues } | null;
}

const BASE = ADMIN_PATHS.notes;

function formatDate(value: string) {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(date);
}

function NoteForm({
  note,
  today,
  error,
  values,
}: {
  note: ReleaseNote | null;
  today: string;
  error: string | null;
  values: NoteFormValues | null;
}) {
  const intent = note ? "update-note" : "create-note";
  const busy = usePending(intent);
  const v: NoteFormValues =
    values ?? (note ? { version: note.version, title: note.title, content: note.content, releaseDate: note.releaseDate } : {});
  const prefix = note ? "edit-note" : "new-note";
  return (
    <Form
      method="post"
      action={note ? `${BASE}?editNote=${note.id}` : BASE}
      className="card admin-form"
      noValidate
      key={`${note?.id ?? "new"}|${JSON.stringify(values)}`}
    >
      <h3>{note ? `Edit Release Note ${note.version}` : "New Release Note"}</h3>
      <input type="hidden" name="intent" value={intent} />
      {note ? <input type="hidden" name="id" value={note.id} /> : null}
      <FormError message={error} />
      <div className="admin-grid">
        <Field
          id={`${prefix}-version`}
          label="Version"
          name="version"
          type="text"
          required
          maxLength={50}
          defaultValue={v.version ?? ""}
          autoComplete="off"
        />
        <Field
          id={`${prefix}-title`}
          label="Title"
          name="title"
          type="text"
          required
          maxLength={200}
          defaultValue={v.title ?? ""}
          autoComplete="off"
        />
        <Field id={`${prefix}-date`} label="Release Date" name="releaseDate" type="date" defaultValue={v.releaseDate ?? today} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-content`}>Content (Markdown)</label>
        <textarea id={`${prefix}-content`} name="content" required rows={8} maxLength={100000} defaultValue={v.content ?? ""} />
      </div>
      <div className="admin-form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Saving..." : note ? "Save Changes" : "Create Release Note"}
        </button>
        {note ? (
          <Link to={BASE} className="btn btn-link">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** Publish or unpublish one note. */
function PublishForm({ note }: { note: ReleaseNote }) {
  const busy = usePending("publish-note", { name: "id", value: note.id });
  return (
    <Form method="post" action={BASE} className="inline-form">
      <input type="hidden" name="intent" value="publish-note" />
      <input type="hidden" name="id" value={note.id} />
      <input type="hidden" name="published" value={note.isPublished ? "false" : "true"} />
      <button type="submit" className="btn btn-secondary btn-sm" disabled={busy}>
        {busy ? "Saving..." : note.isPublished ? "Unpublish" : "Publish"}
      </button>
    </Form>
  );
}

/** The confirmation dialog's Delete. */
function DeleteForm({ note }: { note: ReleaseNote }) {
  const busy = usePending("delete-note", { name: "id", value: note.id });
  return (
    <Form method="post" action={BASE} className="inline-form">
      <input type="hidden" name="intent" value="delete-note" />
      <input type="hidden" name="id" value={note.id} />
      <button type="submit" className="btn btn-danger" disabled={busy}>
        {busy ? "Deleting..." : "Delete"}
      </button>
    </Form>
  );
}

/** Release notes: list (newest first), create, edit, publish / unpublish, delete with confirmation. */
export function ReleaseNotesSection({ notes, editId, confirmDeleteId, today, formError }: Props) {
  const navigate = useNavigate();
  const editing = editId ? (notes.find((n) => n.id === editId) ?? null) : null;
  const deleting = confirmDeleteId ? (notes.find((n) => n.id === confirmDeleteId) ?? null) : null;
  const errorFor = (intent: string, id: string | null) =>
    formError && formError.intent === intent && formError.id === id ? formError : null;
  const editError = editing ? errorFor("update-note", editing.id) : null;
  const createError = errorFor("create-note", null);

  return (
    <section aria-labelledby="notes-title" className="admin-section">
      <h2 id="notes-title">Release Notes</h2>
      {editing ? (
        <NoteForm note={editing} today={today} error={editError?.message ?? null} values={editError?.values ?? null} />
      ) : (
        <NoteForm note={null} today={today} error={createError?.message ?? null} values={createError?.values ?? null} />
      )}

      {notes.length === 0 ? (
        <p className="empty-state">No release notes yet.</p>
      ) : (
        <ul className="release-notes" aria-label="Release notes">
          {notes.map((n) => (
            <li key={n.id} className="card release-note" aria-label={`Release note ${n.version}`}>
              <div className="release-note-head">
                <div>
                  <h3>
                    <span className="release-version">{n.version}</span> {n.title}
                  </h3>
                  <p className="release-date">
                    <time dateTime={n.releaseDate}>{formatDate(n.releaseDate)}</time>
                  </p>
                </div>
                <span className={`badge ${n.isPublished ? "badge-success" : "badge-muted"}`}>{n.isPublished ? "Published" : "Draft"}</span>
              </div>
              <Markdown>{n.content}</Markdown>
              <div className="release-note-actions">
                <Link to={`${BASE}?editNote=${n.id}`} className="btn btn-secondary btn-sm" aria-label={`Edit release note ${n.version}`}>
                  Edit
                </Link>
                <PublishForm note={n} />
                <Link
                  to={`${BASE}?confirmDelete=${n.id}`}
                  className="btn btn-danger btn-sm"
                  preventScrollReset
                  aria-label={`Delete release note ${n.version}`}
                >
                  Delete
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      {deleting ? (
        <ConfirmDialog
          title="Delete Release Note"
          onCancel={() => navigate(BASE, { replace: true, preventScrollReset: true })}
          actions={
            <>
              <Link to={BASE} className="btn btn-secondary" replace preventScrollReset>
                Cancel
              </Link>
              <DeleteForm note={deleting} />
            </>
          }
        >
          <p>Are you sure you want to delete this release note?</p>
          <p>
            <strong>
              {deleting.version} {deleting.title}
            </strong>
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
