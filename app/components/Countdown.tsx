import { useEffect, useState } from "react";
import { IconAlert } from "~/components/Icons";
import { countdownAnnouncement, formatCountdown, isUrgent } from "~/lib/countdown";

interface Props {
  /** The deadline (ISO), or null when unknown (TBA). */
  deadline: string | null;
  /** The server's clock when the page was rendered, so server and first client render agree. */
  serverNow: string;
  caption?: string;
  /**
   * What closes, for screen readers ("Team selection", "Registration"): a polite live region says so once
   * when under three hours are left and once when it has closed, never on a tick.
   */
  announce?: string;
}

/**
 * A ticking countdown label (TBA, Closed, 2d 18h, 5h 12m, 45m; app/lib/countdown). It only displays: the
 * server decides what is open. Under three hours it turns urgent (colour, weight and an icon, not colour
 * alone). It ticks from the server's clock plus the time elapsed in the browser, so a moved test clock and a
 * wrong device clock both show the server's view.
 */
export function Countdown({ deadline, serverNow, caption = "Until registration closes", announce }: Props) {
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  useEffect(() => {
    const offset = new Date(serverNow).getTime() - Date.now();
    const tick = () => setNow(Date.now() + offset);
    tick();
    const id = window.setInterval(tick, 15_000);
    return () => window.clearInterval(id);
  }, [serverNow]);
  const label = formatCountdown(deadline, now);
  const urgent = isUrgent(deadline, now);
  return (
    <div className={`countdown${urgent ? " is-urgent" : ""}`} data-urgent={urgent ? "true" : undefined}>
      <span className="countdown-value" aria-live="off">
        {urgent ? <IconAlert size={16} className="countdown-icon" /> : null}
        {label}
      </span>
      <span className="countdown-caption">{caption}</span>
      {announce ? (
        <span className="visually-hidden" aria-live="polite" role="status">
          {countdownAnnouncement(deadline, now, announce)}
        </span>
      ) : null}
    </div>
  );
}
