/**
 * The one countdown format of every page (dashboard, competitions, competition overview, Team Selection and
 * the Scout lock): the two largest units, "2d 18h", "5h 12m", "45m" ("0m" under a minute).
 */

const MINUTE = 60_000;

/** Under this much time left a deadline is urgent (the 3-hour reminder goes out at the same point). */
export const URGENT_MS = 3 * 60 * MINUTE;

function msLeft(deadline: Date | string | null | undefined, now: Date | number): number | null {
  if (!deadline) return null;
  const end = new Date(deadline).getTime();
  if (Number.isNaN(end)) return null;
  return end - (typeof now === "number" ? now : now.getTime());
}

/** A positive duration as "2d 18h", "5h 12m" or "45m" (whole minutes, rounded down; "0m" under a minute). */
export function formatDuration(ms: number): string {
  const totalMinutes = Math.max(0, Math.floor(ms / MINUTE));
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}

/** Countdown label to a deadline: "TBA" when unknown, "Closed" once passed, otherwise formatDuration's. */
export function formatCountdown(deadline: Date | string | null | undefined, now: Date | number): string {
  const ms = msLeft(deadline, now);
  if (ms === null) return "TBA";
  if (ms <= 0) return "Closed";
  return formatDuration(ms);
}

/** The deadline is known, not passed and less than three hours away. */
export function isUrgent(deadline: Date | string | null | undefined, now: Date | number): boolean {
  const ms = msLeft(deadline, now);
  return ms !== null && ms > 0 && ms < URGENT_MS;
}

/**
 * What a screen reader is told about a deadline: it changes only when the state does (open, under three
 * hours, closed), so a polite live region speaks once per change and never on a tick.
 */
export function countdownAnnouncement(deadline: Date | string | null | undefined, now: Date | number, closesWhat: string): string {
  const ms = msLeft(deadline, now);
  if (ms === null) return "";
  if (ms <= 0) return `${closesWhat} has closed.`;
  if (ms < URGENT_MS) return `${closesWhat} closes in less than 3 hours.`;
  return "";
}
