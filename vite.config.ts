import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import path from "node:path";

/**
 * The browser's chunks (decision 023, addendum). By default Rollup made a chunk of every group of modules shared by
 * a different set of pages: about twenty files of a few hundred bytes each, all preloaded by every page before its
 * first paint, and on a slow phone connection each file costs a request more than its bytes. Now: React with Remix
 * in one chunk (it changes only with their versions, so it stays cached across deploys); the app's own modules that
 * more than one page uses (the shell, the shared components, lib and stylesheet URLs) in one more; a module only one
 * page (or only admin pages) uses stays with them, as do the Markdown view and the CSV parser with their libraries,
 * and dynamic imports (firebase, canvas-confetti), fetched only where used.
 */
const VENDOR = /\/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//;

type ModuleInfo = { isEntry: boolean; importers: readonly string[]; dynamicImporters: readonly string[] } | null;

function clientChunks() {
  const entriesOf = new Map<string, Set<string>>();
  /** The entry modules (pages, the client entry) that load this module, statically or by a dynamic import. */
  function entries(id: string, info: (id: string) => ModuleInfo, seen = new Set<string>()): Set<string> {
    const known = entriesOf.get(id);
    if (known) return known;
    const found = new Set<string>();
    const m = info(id);
    if (m?.isEntry) found.add(id);
    seen.add(id);
    for (const importer of [...(m?.importers ?? []), ...(m?.dynamicImporters ?? [])]) {
      if (!seen.has(importer)) for (const e of entries(importer, info, seen)) found.add(e);
    }
    if (seen.size === 1) entriesOf.set(id, found);
    seen.delete(id);
    return found;
  }
  return (id: string, { getModuleInfo }: { getModuleInfo: (id: string) => ModuleInfo }): string | undefined => {
    const file = id.split(path.sep).join("/");
    if (VENDOR.test(file)) return "vendor";
    if (!/\/app\/(components|lib|styles)\//.test(file) || file.includes("/node_modules/")) return undefined;
    // They bring their libraries (react-markdown, papaparse): a manual chunk takes in its modules' dependencies.
    if (file.endsWith("/components/admin/Markdown.tsx") || file.endsWith("/lib/csv.ts")) return undefined;
    const pages = [...entries(id, getModuleInfo)];
    if (pages.length < 2 || pages.every((page) => page.includes("/routes/_app.admin"))) return undefined;
    return "shared";
  };
}

// The Remix build only; wrangler bundles build/server with workers/web/index.ts.
export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  ssr: {
    target: "webworker",
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
  },
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: clientChunks() } } },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        // Off (decision 023, addendum 4): the whole route manifest (1.3 kB gzip) loads with the page's scripts. With
        // lazy discovery, every page fetched /__manifest for its links right after hydrating, and again for links
        // rendered later (the consent banner's), a request that waited for hydration; Lighthouse's simulated phone
        // counted those round trips in the largest contentful paint (200-300 ms in measured runs).
        v3_lazyRouteDiscovery: false,
      },
    }),
  ],
}));
