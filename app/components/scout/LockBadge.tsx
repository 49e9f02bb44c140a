import { useEffect, useState } from "react";
import { lockBadgeText } from "~/lib/scout";

interface Props {
  /** The current match day's deadline (ISO), null when it has no fixtures or its kickoff times are not known yet. */
  lockTime: string | null;
  /** The match day has fixtures: without a deadline the badge says TBA. */
  hasFixtures: boolean;
  /** The server's answer: it decides what is locked; the badge only counts down to it. */
  locked: boolean;
  /** The server's clock when the page was rendered, so server and first client render agree. */
  serverNow: string;
}

/**
 * 'Predictions Lock in 2h 5m' / '5m' / 'Less than 1 minute', or 'Predictions Locked', ticking in the browser
 * from the server's clock plus the time elapsed here (a moved test clock or a wrong device clock both show
 * the server's view).
 */
export function LockBadge({ lockTime, locked, hasFixtures, serverNow }: Props) {
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  useEffect(() => {
    const offset = new Date(serverNow).getTime() - Date.now();
    const tick = () => setNow(Date.now() + offset);
    tick();
    const id = window.setInterval(tick, 10_000);
    return () => window.clearInterval(id);
  }, [serverNow]);
  const text = lockBadgeText(lockTime, now, locked, hasFixtures);
  if (!text) return null;
  const tone = text === "Predictions Locked" ? "badge-danger" : lockTime ? "badge-warning" : "badge-muted";
  return (
    <span className={`badge scout-lock ${tone}`} data-testid="scout-lock">
      {text}
    </span>
  );
}
