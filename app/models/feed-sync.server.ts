import { dateFormat, formatKickoff, safeTimeZone, zoneAbbreviation } from "~/lib/date-format";
import type { SyncNowAnswer } from "../../workers/web/feed-sync";

/*
 * What the admin panel says about a sync it asked for (decision 027): after Link or Sync now the scheduler syncs the
 * league at once when the feed's budget allows, else the first feed tick that it allows does ("will sync at").
 */

/** "14:32 GMT" in the admin's zone; a day and date first when it is not today there. */
export function syncTimeText(value: Date | string, timeZone: string | null, now: Date): string {
  const zone = safeTimeZone(timeZone);
  const day = dateFormat("en-GB", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
  if (day.format(new Date(value)) !== day.format(now)) return formatKickoff(value, zone, { full: true });
  return `${dateFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" }).format(new Date(value))} ${zoneAbbreviation(value, zone)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The toast after a committed Link or Sync now, from the scheduler's answer (null: it could not be asked, so the
 * next feed tick syncs it, within a minute when the budget allows).
 */
export function syncMessage(
  call: "link" | "sync",
  label: string,
  answer: SyncNowAnswer | null,
  timeZone: string | null,
  now: Date,
): { type: "success" | "error"; message: string } {
  const linked = call === "link";
  switch (answer?.status) {
    case "synced": {
      const changed = `${plural(answer.fixtures, "fixture")} and ${plural(answer.results, "result")} changed.`;
      return {
        type: "success",
        message: linked ? `${label} is linked to the data feed and synced: ${changed}` : `${label} synced: ${changed}`,
      };
    }
    case "waiting": {
      const at = syncTimeText(answer.at, timeZone, now);
      return {
        type: "success",
        message: linked ? `${label} is linked to the data feed: it will sync at ${at}.` : `Sync requested: ${label} will sync at ${at}.`,
      };
    }
    case "failed":
    case "unavailable": // the feed's settings are unusable: no tick would sync it either
      return {
        type: "error",
        message: linked
          ? `${label} is linked to the data feed, but the sync failed: ${answer.message.slice(0, 400)}`
          : `${label} could not be synced: ${answer.message.slice(0, 400)}`,
      };
    default:
      return {
        type: "success",
        message: linked
          ? `${label} is linked to the data feed: it syncs within a minute.`
          : `Sync requested: ${label} syncs within a minute.`,
      };
  }
}
