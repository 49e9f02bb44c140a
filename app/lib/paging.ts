/**
 * Page arithmetic of every paged list (competitions, My Competitions, registered players, leaderboards): pages
 * count from 1, a page asked for below 1 is the first, and an empty list still has one (empty) page.
 */

/** How many pages `total` rows fill, `pageSize` a page (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page actually shown for a requested page number, and the offset of its first row. */
export function pageWindow(requestedPage: number, pageSize: number): { page: number; offset: number } {
  const page = Math.max(1, requestedPage);
  return { page, offset: (page - 1) * pageSize };
}

/** Pages past this are past the last page of any list: they redirect there instead of overflowing SQL's int. */
const MAX_PAGE = 1_000_000;

/** Page number from the URL: 1 for anything that is not a positive whole number. */
export function pageFrom(url: URL, param = "page"): number {
  const raw = url.searchParams.get(param) ?? "1";
  if (!/^\d{1,9}$/.test(raw)) return /^\d+$/.test(raw) ? MAX_PAGE : 1;
  const n = Number(raw);
  return n > 0 ? Math.min(n, MAX_PAGE) : 1;
}
