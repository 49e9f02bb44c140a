// The Remix server build that `remix vite:build` writes before wrangler bundles this Worker.
declare module "../../build/server/index.js" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
