import { useEffect, useState } from "react";

/** True once the page has hydrated (JavaScript is running): e.g. forms then ask the action for data instead of a redirect. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
