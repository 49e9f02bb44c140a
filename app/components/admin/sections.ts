/** The admin panel's sections: one route each under /admin (app/routes/_app.admin.*.tsx), in tab order. */
export const ADMIN_SECTIONS = [
  { id: "results", label: "Results", path: "/admin/fixtures" },
  { id: "create", label: "Create Competition", path: "/admin/competitions" },
  { id: "upload", label: "CSV Upload", path: "/admin/upload" },
  { id: "notes", label: "Release Notes", path: "/admin/release-notes" },
  { id: "feed", label: "Data Feed", path: "/admin/feed" },
] as const;

type AdminSection = (typeof ADMIN_SECTIONS)[number]["id"];

/** The admin panel's pages (the app's navigation shows Admin Panel as current on every section). */
export const isAdminPath = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");

export const ADMIN_PATHS = Object.fromEntries(ADMIN_SECTIONS.map((s) => [s.id, s.path])) as Record<AdminSection, string>;

/**
 * Where an old single-page URL (/admin/fixtures?section=create|upload|notes) lives now, with its other query
 * parameters; null when the URL is not one of those (results stayed at /admin/fixtures).
 */
export function movedSectionUrl(url: URL): string | null {
  const section = url.searchParams.get("section");
  if (section === null || section === "results" || !(section in ADMIN_PATHS)) return null;
  const params = new URLSearchParams(url.searchParams);
  params.delete("section");
  const query = params.toString();
  return `${ADMIN_PATHS[section as AdminSection]}${query ? `?${query}` : ""}`;
}
