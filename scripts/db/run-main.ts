import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Runs `main` when the module at `moduleUrl` is the script node was started with (`tsx scripts/db/seed.ts`),
 * not when it is imported; a failure prints its message and exits 1.
 */
export function runIfMain(moduleUrl: string, main: () => Promise<void>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
