import { createElement as h, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lowPriority } from "../../app/components/Scripts";

// The shape Remix 2.17's <Scripts /> returns: preload links, then a fragment with the context script and the
// inline module script that imports the route modules.
const remixScripts = () =>
  h(
    Fragment,
    null,
    h("link", { rel: "modulepreload", href: "/assets/entry.client.js" }),
    [
      h("link", { key: "v", rel: "modulepreload", href: "/assets/vendor.js" }),
      h("link", { key: "r", rel: "modulepreload", href: "/assets/root.js" }),
    ],
    h(
      Fragment,
      null,
      h("script", { dangerouslySetInnerHTML: { __html: "window.__remixContext = {};" } }),
      h("script", { type: "module", async: true, dangerouslySetInnerHTML: { __html: 'import("/assets/entry.client.js");' } }),
    ),
  );

describe("the page's module preloads go at low priority (app/components/Scripts.tsx)", () => {
  it("marks every modulepreload link, nested or not, and nothing else", () => {
    const html = renderToStaticMarkup(h(Fragment, null, lowPriority(remixScripts())));
    const links = html.match(/<link [^>]*>/g) ?? [];
    expect(links).toHaveLength(3);
    for (const link of links) expect(link).toContain('fetchpriority="low"');
    expect(html).toContain("<script>window.__remixContext = {};</script>");
    expect(html).toContain('<script type="module" async="">import("/assets/entry.client.js");</script>');
    expect(html.match(/fetchpriority/g)).toHaveLength(3);
  });

  it("renders nothing when Remix renders nothing (after hydration)", () => {
    expect(lowPriority(null)).toBeNull();
  });
});
