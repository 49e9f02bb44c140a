/** "active" -> "Active": a status as the pages show it (an empty string stays empty). */
export const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
