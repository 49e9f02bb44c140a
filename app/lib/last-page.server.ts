import { redirect } from "@remix-run/cloudflare";

/**
 * A page past the last one (e.g. a shared link after competitions closed) redirects to the last page,
 * keeping the filters; page 1 is the URL without a page parameter.
 */
export function redirectPastLastPage(url: URL, list: { page: number; pageCount: number }): void {
  if (list.page <= list.pageCount) return;
  if (list.pageCount <= 1) url.searchParams.delete("page");
  else url.searchParams.set("page", String(list.pageCount));
  throw redirect(url.pathname + url.search);
}
