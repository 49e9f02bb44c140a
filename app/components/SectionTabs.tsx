import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useId } from "react";

export interface SectionTab {
  id: string;
  label: string;
}

interface Props {
  tabs: readonly SectionTab[];
  active: string;
  /** The tab the page shows without ?tab= (its links drop the parameter). */
  defaultTab: string;
  /** The navigation's accessible name ("Competition sections"). */
  label: string;
  /** Query parameters that belong to one tab only and are dropped when switching tabs. */
  drop?: readonly string[];
  /** Query parameters the no-JavaScript dropdown form must carry along (a GET form sends only its fields). */
  keep?: Readonly<Record<string, string>>;
  /** An extra link after the tabs (the competition page's "How to play"). */
  extra?: { href: string; label: string };
}

function tabHref(search: string, tab: string, defaultTab: string, drop: readonly string[] = []) {
  const params = new URLSearchParams(search);
  for (const name of drop) params.delete(name);
  if (tab === defaultTab) params.delete("tab");
  else params.set("tab", tab);
  const qs = params.toString();
  return qs ? `?${qs}` : "?";
}

/**
 * A page's sections in the URL (?tab=): links on desktop, a dropdown below 768px that navigates on change
 * (with JavaScript) or with its Go button (without). Shared by the competition page and /scout.
 */
export function SectionTabs({ tabs, active, defaultTab, label, drop = [], keep = {}, extra }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const selectId = useId();
  return (
    <>
      <nav aria-label={label} className="tabs-desktop">
        <ul className="tabs">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={tabHref(location.search, t.id, defaultTab, drop)}
                aria-current={t.id === active ? "page" : undefined}
                preventScrollReset
                replace
              >
                {t.label}
              </Link>
            </li>
          ))}
          {extra ? (
            <li>
              <a href={extra.href}>{extra.label}</a>
            </li>
          ) : null}
        </ul>
      </nav>
      <Form method="get" className="tabs-mobile" replace preventScrollReset>
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor={selectId}>Section</label>
        <div className="row">
          <select
            id={selectId}
            name="tab"
            value={active}
            onChange={(e) =>
              navigate(tabHref(location.search, e.target.value, defaultTab, drop), { replace: true, preventScrollReset: true })
            }
          >
            {tabs.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
          <noscript>
            <button type="submit" className="btn btn-secondary">
              Go
            </button>
          </noscript>
          {extra ? (
            <a href={extra.href} className="btn btn-link">
              {extra.label}
            </a>
          ) : null}
        </div>
      </Form>
    </>
  );
}
