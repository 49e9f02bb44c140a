/**
 * Countdown label to a deadline: "TBA" when unknown, "Closed" once passed, otherwise days, hours
 * and minutes such as "1d:2h:3m" (leading zero units dropped; "0m" under a minute).
 */
export function formatCountdown(deadline: Date | string | null | undefined, now: Date | number): string {
  if (!deadline) return "TBA";
  const end = new Date(deadline).getTime();
  if (Number.isNaN(end)) return "TBA";
  const ms = end - (typeof now === "number" ? now : now.getTime());
  if (ms <= 0) return "Closed";
  const totalMinutes = Math.floor(ms / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `${days}d:${hours}h:${minutes}m`;
  if (hours > 0) return `${hours}h:${minutes}m`;
  return `${minutes}m`;
}
