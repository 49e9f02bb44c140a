import { createContext, useContext, type ReactNode } from "react";

/**
 * Whether content already sits inside the page's <main> landmark. A page has exactly one main: the signed-in
 * shell provides it, while a page shown without the shell (the 404 page, the root error page) must bring its
 * own. Components that can appear in both places (StatusPage) ask here instead of guessing.
 */
const InsideMain = createContext(false);

/** Marks everything below as already inside the page's main landmark (AppShell's <main>). */
export function InsideMainLandmark({ children }: { children: ReactNode }) {
  return <InsideMain.Provider value={true}>{children}</InsideMain.Provider>;
}

export function useInsideMainLandmark(): boolean {
  return useContext(InsideMain);
}
