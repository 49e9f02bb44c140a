import { useNavigation } from "@remix-run/react";

/**
 * The page's loading status (the spec's "Loading..." texts) while the router fetches the next page, in a
 * live region so screen readers announce it. `hidden` keeps it for screen readers only.
 */
export function PageLoading({ text = "Loading...", hidden = false }: { text?: string; hidden?: boolean }) {
  const loading = useNavigation().state === "loading";
  if (!loading) return null;
  return (
    <p className={hidden ? "visually-hidden" : "loading"} role="status">
      {text}
    </p>
  );
}
