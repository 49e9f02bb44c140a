import { z } from "zod";
import type { Db } from "~/db/types";

/*
 * A player's notices (decision 020): written by the result path when a correction changed their outcome
 * (private.notify_result_correction), read and marked read here as the player (row-level security: own rows only).
 */

/** The navigation shows at most this many (then "99+"): the count never scans a long history. */
export const UNREAD_SHOWN = 99;
const PAGE = 50;

export interface NoticeItem {
  id: string;
  body: string;
  link: string;
  createdAt: string;
  read: boolean;
  /** An invitation to a next season (kind next_season, decision 030): the competition its one-tap Join joins. */
  nextSeasonId: string | null;
}

/**
 * The unread count for the navigation, capped at UNREAD_SHOWN + 1. One statement, sent with the page's other reads
 * in the same round trip (decision 012): call it in the same tick as they are (the shell's loader does).
 */
export function unreadNoticeCount(db: Db, userId: string): Promise<number> {
  return db.asUser(userId, async (tx) => {
    const [row] = await tx<{ n: number }[]>`
      select count(*)::int as n from (
        select 1 from public.notices n where n.user_id = ${userId} and n.read_at is null limit ${UNREAD_SHOWN + 1}) u`;
    return row?.n ?? 0;
  });
}

/** The latest notices, newest first (sent with the session check, before the player's time zone is known). */
export function listNotices(db: Db, userId: string): Promise<NoticeItem[]> {
  return db.asUser(userId, async (tx) => {
    const rows = await tx<
      { id: string; body: string; link: string; created_at: Date; read_at: Date | null; next_season_id: string | null }[]
    >`
      select n.id::text, n.body, n.link, n.created_at, n.read_at,
             case when n.kind = 'next_season' then n.params ->> 'competition_id' end as next_season_id
        from public.notices n
       where n.user_id = ${userId} order by n.created_at desc, n.id desc limit ${PAGE}`;
    return rows.map((r) => ({
      id: r.id,
      body: r.body,
      link: r.link,
      createdAt: new Date(r.created_at).toISOString(),
      read: r.read_at !== null,
      nextSeasonId: r.next_season_id,
    }));
  });
}

export const MarkReadSchema = z.object({
  noticeId: z
    .string()
    .regex(/^\d{1,15}$/, "Notice not found.")
    .optional(),
});

/** Marks one notice (or all of them) read; only the player's own are touched. Returns how many changed. */
export function markNoticesRead(db: Db, userId: string, noticeId: string | undefined): Promise<number> {
  return db.asUser(userId, async (tx) => {
    const rows = await tx<{ id: string }[]>`
      update public.notices n set read_at = public.app_now()
       where n.user_id = ${userId} and n.read_at is null ${noticeId ? tx`and n.id = ${noticeId}::bigint` : tx``}
      returning n.id::text`;
    return rows.length;
  });
}
