import postgres from "postgres";
import type { Db } from "~/db/types";

/*
 * Release notes (admin panel): list, create, edit, publish/unpublish, delete. Plain SQL as the admin
 * (db.asUser); the admin-only policies on public.release_notes decide who may write.
 */

export interface ReleaseNote {
  id: string;
  version: string;
  title: string;
  content: string;
  releaseDate: string;
  isPublished: boolean;
}

interface NoteRow {
  id: string;
  version: string;
  title: string;
  content: string;
  release_date: string;
  is_published: boolean;
}

const toNote = (r: NoteRow): ReleaseNote => ({
  id: r.id,
  version: r.version,
  title: r.title,
  content: r.content,
  releaseDate: r.release_date,
  isPublished: r.is_published,
});

export async function listReleaseNotes(db: Db, userId: string): Promise<ReleaseNote[]> {
  const rows = await db.asUser(
    userId,
    (sql) =>
      sql<NoteRow[]>`
      select n.id, n.version, n.title, n.content, n.release_date::text as release_date, n.is_published
        from public.release_notes n
       order by n.release_date desc, n.created_at desc, n.id`,
  );
  return rows.map(toNote);
}

/** A note as the Release Notes form's schema gives it (app/routes/_app.admin.release-notes.tsx). */
interface ReleaseNoteInput {
  version: string;
  title: string;
  content: string;
  releaseDate: string | null;
}

type NoteResult = { ok: true; message: string } | { ok: false; status: number; message: string };

function failed(error: unknown, message: string): NoteResult {
  if (error instanceof Response) throw error;
  const status = error instanceof postgres.PostgresError && error.code === "42501" ? 403 : 500;
  console.error(`${message}:`, (error as Error)?.message ?? error);
  return { ok: false, status, message };
}

export async function createReleaseNote(db: Db, userId: string, input: ReleaseNoteInput): Promise<NoteResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql`insert into public.release_notes (version, title, content, release_date, created_by)
         values (${input.version}, ${input.title}, ${input.content},
                 coalesce(${input.releaseDate}::date, (public.app_now() at time zone 'UTC')::date), ${userId})
         returning id`,
    );
    if (rows.length === 0) return { ok: false, status: 500, message: "Failed to create release note" };
    return { ok: true, message: "Release note created!" };
  } catch (error) {
    return failed(error, "Failed to create release note");
  }
}

export async function updateReleaseNote(db: Db, userId: string, id: string, input: ReleaseNoteInput): Promise<NoteResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) =>
        sql`update public.release_notes
            set version = ${input.version}, title = ${input.title}, content = ${input.content},
                release_date = coalesce(${input.releaseDate}::date, release_date)
          where id = ${id}
          returning id`,
    );
    if (rows.length === 0) return { ok: false, status: 404, message: "Failed to update release note" };
    return { ok: true, message: "Release note updated!" };
  } catch (error) {
    return failed(error, "Failed to update release note");
  }
}

export async function setReleaseNotePublished(db: Db, userId: string, id: string, published: boolean): Promise<NoteResult> {
  try {
    const rows = await db.asUser(
      userId,
      (sql) => sql`update public.release_notes set is_published = ${published} where id = ${id} returning id`,
    );
    if (rows.length === 0) return { ok: false, status: 404, message: "Failed to update publish status" };
    return { ok: true, message: published ? "Release note published!" : "Release note unpublished!" };
  } catch (error) {
    return failed(error, "Failed to update publish status");
  }
}

export async function deleteReleaseNote(db: Db, userId: string, id: string): Promise<NoteResult> {
  try {
    const rows = await db.asUser(userId, (sql) => sql`delete from public.release_notes where id = ${id} returning id`);
    if (rows.length === 0) return { ok: false, status: 404, message: "Failed to delete release note" };
    return { ok: true, message: "Release note deleted!" };
  } catch (error) {
    return failed(error, "Failed to delete release note");
  }
}

/*
 * What's new (players, /whats-new): the published notes, as any signed-in player reads them (the
 * release_notes_select_published policy; an admin's own policy would also show drafts, so both queries filter).
 */

/** A published note as players see it. */
export interface PublishedReleaseNote {
  id: string;
  version: string;
  title: string;
  content: string;
  releaseDate: string;
}

/** Published notes, newest first (the admin panel's order). */
export async function listPublishedReleaseNotes(db: Db, userId: string): Promise<PublishedReleaseNote[]> {
  const rows = await db.asUser(
    userId,
    (sql) =>
      sql<Omit<NoteRow, "is_published">[]>`
      select n.id, n.version, n.title, n.content, n.release_date::text as release_date
        from public.release_notes n
       where n.is_published
       order by n.release_date desc, n.created_at desc, n.id`,
  );
  return rows.map((r) => ({ id: r.id, version: r.version, title: r.title, content: r.content, releaseDate: r.release_date }));
}

/**
 * The newest published note's key (its creation time in microseconds since the epoch, as digits), or null when
 * nothing is published: a player has seen everything when their last seen key is at least this one. One small
 * statement, sent with the app shell's session check in the same round trip (decision 012).
 */
export async function newestPublishedNoteKey(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.asUser(
    userId,
    (sql) =>
      sql<{ key: string | null }[]>`
      select (floor(extract(epoch from max(n.created_at)) * 1000000))::bigint::text as key
        from public.release_notes n
       where n.is_published`,
  );
  return row?.key ?? null;
}
