/**
 * The signed-in layout: a collapsible left sidebar on desktop (>= 768px); a
 * header, a fixed bottom bar and the "More" modal on mobile (< 768px). Both
 * navigations are always in the DOM; CSS media queries show one of them.
 */
import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { ComponentType, ReactNode } from "react";
import {
  IconBell,
  IconChevronLeft,
  IconDashboard,
  IconLogout,
  IconMore,
  IconScout,
  IconShield,
  IconSparkle,
  IconStar,
  IconTrophy,
  IconUser,
} from "~/components/Icons";
import { Logo } from "~/components/Logo";
import { InsideMainLandmark } from "~/components/MainLandmark";
import type { IconProps } from "~/components/Icons";
import { MoreModal } from "~/components/MoreModal";
import { isAdminPath } from "~/components/admin/sections";

export type ShellUser = {
  id: string;
  email: string;
  username: string | null;
  role: "player" | "admin";
};

type AppShellProps = {
  user: ShellUser;
  /** Unread notices (decision 020), read with the page in the same round trip; shown as "99+" above 99. */
  unreadNotices: number;
  /**
   * Published release notes the player has not opened yet (the newest one's key, or null when all are seen), read
   * with the page in the same round trip. Shows a "New" dot on What's new until /whats-new is opened.
   */
  whatsNew: string | null;
  children: ReactNode;
};

/** The "New" marker beside What's new: a dot with its words for screen readers. */
function NewDot({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <span className="nav-new">
      <span className="sr-only">, new release notes</span>
    </span>
  );
}

/** The unread count beside the Notices link: "3 unread" for screen readers, nothing when there are none. */
function UnreadCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="nav-count">
      {count > 99 ? "99+" : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/** localStorage key remembering the collapsed desktop sidebar ("1" collapsed, "0" expanded). */
const SIDEBAR_STORAGE_KEY = "footycoach_sidebar_collapsed";

const DESKTOP_QUERY = "(min-width: 768px)";

// Runs before paint in the browser (no flash of the expanded sidebar), and is a no-op during SSR.
const useIsomorphicLayoutEffect = typeof window !== "undefined" ? useLayoutEffect : useEffect;

type NavItem = { to: string; label: string; icon: ComponentType<IconProps> };

const PRIMARY_ITEMS: NavItem[] = [
  { to: "/dashboard", label: "Dashboard", icon: IconDashboard },
  { to: "/competitions", label: "Competitions", icon: IconTrophy },
  { to: "/my-competitions", label: "My Competitions", icon: IconStar },
];

const navLinkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "nav-link active" : "nav-link");
const bottomLinkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "bottom-link active" : "bottom-link");

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}

function writeCollapsed(value: boolean) {
  try {
    window.localStorage.setItem(SIDEBAR_STORAGE_KEY, value ? "1" : "0");
  } catch {
    // Storage unavailable (private mode, quota): the choice lasts for this page only.
  }
}

export function AppShell({ user, unreadNotices, whatsNew, children }: AppShellProps) {
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreButtonRef = useRef<HTMLButtonElement>(null);
  const adminDescId = useId();
  const profileDescId = useId();
  const isAdmin = user.role === "admin";
  const displayName = user.username ?? user.email;

  // Restore the remembered sidebar state once hydrated.
  useIsomorphicLayoutEffect(() => {
    setCollapsed(readCollapsed());
  }, []);

  const toggleCollapsed = useCallback(() => {
    setCollapsed((prev) => {
      const next = !prev;
      writeCollapsed(next);
      return next;
    });
  }, []);

  // The More modal closes on every navigation (adjusted while rendering, not in an effect).
  const navigation = `${location.key} ${location.pathname}`;
  const [seenNavigation, setSeenNavigation] = useState(navigation);
  if (navigation !== seenNavigation) {
    setSeenNavigation(navigation);
    setMoreOpen(false);
  }

  // ...and when the viewport grows to desktop, where the modal has no place.
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const mql = window.matchMedia(DESKTOP_QUERY);
    const onChange = () => {
      if (mql.matches) setMoreOpen(false);
    };
    mql.addEventListener?.("change", onChange);
    return () => mql.removeEventListener?.("change", onChange);
  }, []);

  // Publish the bottom bar's real height (labels may wrap) so content and the consent banner clear it.
  const bottomBarRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = bottomBarRef.current;
    if (!bar || typeof ResizeObserver !== "function") return;
    const root = document.documentElement;
    // The observer reports the size after the browser's own layout, before the frame is painted (its first report
    // comes on observe): measuring here forced a layout of the whole page inside the hydration task (addendum 4).
    const observer = new ResizeObserver(() => {
      if (bar.offsetHeight > 0) root.style.setProperty("--bottombar-offset", `${bar.offsetHeight}px`);
      else root.style.removeProperty("--bottombar-offset");
    });
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--bottombar-offset");
    };
  }, []);

  const closeMore = useCallback(() => setMoreOpen(false), []);

  // What's new: the dot goes once /whats-new is opened (its loader records that in a cookie; this layout's data is
  // not reloaded by a client-side navigation, so remember it here too, per newest note).
  const [seenWhatsNew, setSeenWhatsNew] = useState<string | null>(null);
  if (whatsNew && location.pathname === "/whats-new" && seenWhatsNew !== whatsNew) setSeenWhatsNew(whatsNew);
  const hasWhatsNew = Boolean(whatsNew) && whatsNew !== seenWhatsNew && location.pathname !== "/whats-new";

  const inAdmin = isAdminPath(location.pathname);
  // "More" is shown as current when the page is one of the modal's destinations.
  const moreIsCurrent = ["/scout", "/profile", "/admin"].some((p) => location.pathname === p || location.pathname.startsWith(`${p}/`));

  const sidebarLabel = (text: string) => <span className="nav-label">{text}</span>;

  return (
    <div className={collapsed ? "app-shell is-collapsed" : "app-shell"}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>

      {/* Mobile header (hidden on desktop). */}
      <header className="mobile-header">
        <Link to="/dashboard" className="brand" prefetch="intent">
          <Logo size={28} tone="on-dark" />
        </Link>
        <NavLink
          to="/notices"
          className="header-notices"
          aria-label={unreadNotices > 0 ? `Notices, ${unreadNotices > 99 ? "over 99" : unreadNotices} unread` : "Notices"}
        >
          <IconBell size={22} />
          {unreadNotices > 0 ? (
            <span className="nav-count" aria-hidden="true">
              {unreadNotices > 99 ? "99+" : unreadNotices}
            </span>
          ) : null}
        </NavLink>
        <noscript>
          {/* Without JavaScript the More modal cannot open: offer its destinations here. */}
          <div className="noscript-nav">
            <a href="/scout">Scout</a>
            <a href="/profile">Profile</a>
            <a href="/whats-new">What&apos;s new</a>
            {isAdmin ? <a href="/admin/fixtures">Admin Panel</a> : null}
            <form method="post" action="/logout">
              <button type="submit" className="btn btn-link">
                Logout
              </button>
            </form>
          </div>
        </noscript>
      </header>

      {/* Desktop sidebar (hidden on mobile). */}
      <nav className="sidebar" aria-label="Main navigation">
        <div className="sidebar-top">
          <Link to="/dashboard" className="brand" prefetch="intent" title="FootyCoach" aria-label="FootyCoach">
            <Logo size={30} tone="on-dark" wordmarkClassName="nav-label" />
          </Link>
          <button
            type="button"
            className="sidebar-toggle"
            aria-expanded={!collapsed}
            aria-controls="sidebar-menu"
            aria-label="Toggle sidebar"
            title={collapsed ? "Expand sidebar" : "Collapse sidebar"}
            onClick={toggleCollapsed}
          >
            <IconChevronLeft className="sidebar-toggle-icon" />
          </button>
        </div>

        <ul className="sidebar-menu" id="sidebar-menu">
          {PRIMARY_ITEMS.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink to={to} className={navLinkClass} prefetch="intent" title={collapsed ? label : undefined}>
                <Icon className="nav-icon" />
                {sidebarLabel(label)}
              </NavLink>
            </li>
          ))}
          <li>
            <NavLink to="/scout" className={navLinkClass} prefetch="intent" title={collapsed ? "Scout" : undefined}>
              <IconScout className="nav-icon" />
              {sidebarLabel("Scout")}
            </NavLink>
          </li>
          <li>
            <NavLink to="/notices" className={navLinkClass} title={collapsed ? "Notices" : undefined}>
              <IconBell className="nav-icon" />
              {sidebarLabel("Notices")} <UnreadCount count={unreadNotices} />
            </NavLink>
          </li>
          <li>
            <NavLink to="/whats-new" className={navLinkClass} title={collapsed ? "What's new" : undefined}>
              <IconSparkle className="nav-icon" />
              {sidebarLabel("What's new")}
              <NewDot show={hasWhatsNew} />
            </NavLink>
          </li>
          {isAdmin ? (
            <li>
              {/* A Link, not a NavLink: current on every admin section (/admin/*), not only on Results. */}
              <Link
                to="/admin/fixtures"
                className={navLinkClass({ isActive: inAdmin })}
                aria-current={inAdmin ? "page" : undefined}
                prefetch="intent"
                aria-describedby={adminDescId}
                title={collapsed ? "Admin Panel: Manage competitions" : undefined}
              >
                <IconShield className="nav-icon" />
                <span className="nav-text">
                  {sidebarLabel("Admin Panel")}
                  <span className="nav-desc" id={adminDescId} aria-hidden="true">
                    Manage competitions
                  </span>
                </span>
              </Link>
            </li>
          ) : null}
        </ul>

        <div className="sidebar-bottom">
          <NavLink
            to="/profile"
            className={navLinkClass}
            prefetch="intent"
            aria-describedby={profileDescId}
            title={collapsed ? `Profile: ${displayName}` : undefined}
          >
            <IconUser className="nav-icon" />
            <span className="nav-text">
              {sidebarLabel("Profile")}
              <span className="nav-desc" id={profileDescId} aria-hidden="true">
                {displayName}
              </span>
            </span>
          </NavLink>
          <Form method="post" action="/logout" className="logout-form">
            <button type="submit" className="nav-link logout-button" title={collapsed ? "Logout" : undefined}>
              <IconLogout className="nav-icon" />
              {sidebarLabel("Logout")}
            </button>
          </Form>
        </div>
      </nav>

      <main id="main" className="app-main" tabIndex={-1}>
        <InsideMainLandmark>{children}</InsideMainLandmark>
      </main>

      {/* Mobile bottom bar (hidden on desktop). */}
      <nav className="bottom-bar" aria-label="Main navigation" ref={bottomBarRef}>
        <ul>
          {PRIMARY_ITEMS.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink to={to} className={bottomLinkClass} prefetch="intent">
                <Icon className="bottom-icon" size={22} />
                <span className="bottom-label">{label}</span>
              </NavLink>
            </li>
          ))}
          <li>
            <button
              type="button"
              ref={moreButtonRef}
              className={moreIsCurrent ? "bottom-link active" : "bottom-link"}
              aria-haspopup="dialog"
              aria-expanded={moreOpen}
              onClick={() => setMoreOpen(true)}
            >
              <IconMore className="bottom-icon" size={22} />
              <span className="bottom-label">More</span>
              {hasWhatsNew ? (
                <span className="nav-new bottom-new">
                  <span className="sr-only">, new release notes</span>
                </span>
              ) : null}
            </button>
          </li>
        </ul>
      </nav>

      <MoreModal open={moreOpen} onClose={closeMore} user={user} returnFocusRef={moreButtonRef} whatsNew={hasWhatsNew} />
    </div>
  );
}
