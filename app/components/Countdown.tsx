import { useEffect, useState } from "react";
import { formatCountdown } from "~/lib/countdown";

interface Props {
  /** The deadline (ISO), or null when unknown (TBA). */
  deadline: string | null;
  /** The server's clock when the page was rendered, so server and first client render agree. */
  serverNow: string;
  caption?: string;
}

/**
 * A ticking countdown label (TBA, Closed, 1d:2h:3m). It only displays: the server decides what is open.
 * It ticks from the server's clock plus the time elapsed in the browser, so a moved test clock and a
 * wrong device clock both show the server's view.
 */
export function Countdown({ deadline, serverNow, caption = "Until registration closes" }: Props) {
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  useEffect(() => {
    const offset = new Date(serverNow).getTime() - Date.now();
    const tick = () => setNow(Date.now() + offset);
    tick();
    const id = window.setInterval(tick, 15_000);
    return () => window.clearInterval(id);
  }, [serverNow]);
  const label = formatCountdown(deadline, now);
  return (
    <div className="countdown">
      <span className="countdown-value" aria-live="off">
        {label}
      </span>
      <span className="countdown-caption">{caption}</span>
    </div>
  );
}
