import { Scripts as RemixScripts } from "@remix-run/react";
import { Children, cloneElement, isValidElement, type ReactNode } from "react";

/**
 * Remix's `<Scripts />`, with its `<link rel="modulepreload">` tags fetched at low priority.
 *
 * Why (decision 023, addendum 2): the page is whole without JavaScript (every form posts, decision 010), so the
 * scripts hydrate a page the player can already read and use. At the default (high) priority their 110 kB share a
 * slow phone connection with the stylesheet and the font the first frame needs; at low priority the browser serves
 * those first. Lighthouse's simulation counts every high-priority script that loaded before the first paint as
 * holding it, which kept its first contentful paint at 2.1 s (1.3 s now).
 *
 * Remix renders the links itself and takes no attribute for them, so this calls its component (its hooks run as
 * this component's, in the same order on every render) and copies each link with the attribute added. Server and
 * hydration render the same markup; after hydration Remix renders no links at all.
 */
export function Scripts() {
  return lowPriority(RemixScripts({}));
}

/** Exported for its unit test. */
export function lowPriority(node: ReactNode): ReactNode {
  if (Array.isArray(node)) return Children.map(node, lowPriority);
  if (!isValidElement<{ rel?: string; children?: ReactNode }>(node)) return node;
  if (node.type === "link" && node.props.rel === "modulepreload")
    // lower case: React 18 passes an attribute it does not know through as it is written
    return cloneElement(node, { fetchpriority: "low" } as Record<string, string>);
  if (node.props.children === undefined) return node;
  return cloneElement(node, undefined, ...Children.toArray(lowPriority(node.props.children)));
}
