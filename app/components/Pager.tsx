import { Link, useLocation } from "@remix-run/react";

interface Props {
  page: number;
  pageCount: number;
  /** Search parameter holding the page number (several pagers can share one URL). */
  param?: string;
  label?: string;
}

/** Previous, Page n of N, Next; shown only with more than one page. Pages live in the URL (shareable, no JS needed). */
export function Pager({ page, pageCount, param = "page", label = "Pagination" }: Props) {
  const location = useLocation();
  if (pageCount <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    if (p <= 1) params.delete(param);
    else params.set(param, String(p));
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link className="btn btn-secondary" to={href(page - 1)} preventScrollReset>
          Previous
        </Link>
      ) : (
        <span className="btn btn-secondary" aria-disabled="true">
          Previous
        </span>
      )}
      <span className="pager-status">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link className="btn btn-secondary" to={href(page + 1)} preventScrollReset>
          Next
        </Link>
      ) : (
        <span className="btn btn-secondary" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
