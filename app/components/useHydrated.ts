import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** True once the page has hydrated (JavaScript is running): e.g. forms then ask the action for data instead of a redirect. */
export function useHydrated(): boolean {
  // The server snapshot (false) is used for the server render and hydration; the client's (true) from then on.
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
