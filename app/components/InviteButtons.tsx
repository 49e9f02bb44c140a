import { useEffect, useRef, useState } from "react";

interface ShareProps {
  /** The message shared. */
  text: string;
  /** The link shared (Facebook shares the link, with the text as its quote). */
  url: string;
  /** Subject of the email. */
  subject: string;
  /** Accessible name of each button, by network ("email", "WhatsApp", ...). */
  labelFor: (network: string) => string;
}

/** Share by email, WhatsApp, Facebook and Twitter; Instagram has no share link, so its text is copied. */
export function ShareButtons({ text, url, subject, labelFor }: ShareProps) {
  const encoded = encodeURIComponent(text);
  const [feedback, setFeedback] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copyForInstagram() {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      ok = false;
    }
    setFeedback(ok ? "Copied for Instagram!" : "Failed to copy");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setFeedback(null), 1500);
  }

  return (
    <div className="invite-buttons">
      <a
        className="btn btn-secondary btn-sm"
        aria-label={labelFor("email")}
        href={`mailto:?subject=${encodeURIComponent(subject)}&body=${encoded}`}
      >
        Email
      </a>
      <a
        className="btn btn-secondary btn-sm"
        aria-label={labelFor("WhatsApp")}
        href={`https://wa.me/?text=${encoded}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        WhatsApp
      </a>
      <a
        className="btn btn-secondary btn-sm"
        aria-label={labelFor("Facebook")}
        href={`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}&quote=${encoded}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        Facebook
      </a>
      <a
        className="btn btn-secondary btn-sm"
        aria-label={labelFor("Twitter")}
        href={`https://twitter.com/intent/tweet?text=${encoded}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        Twitter
      </a>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-label={labelFor("Instagram (copies the text)")}
        onClick={() => void copyForInstagram()}
      >
        Instagram
      </button>
      <span className="copy-feedback" role="status" aria-live="polite">
        {feedback ?? ""}
      </span>
    </div>
  );
}

interface Props {
  competitionName: string;
  registrationKey: string;
  /** Absolute URL of the competitions page. */
  competitionsUrl: string;
}

/** The share text of a private competition: the key and a link to the competitions page (spec part 1 §2). */
function inviteText({ competitionName, registrationKey, competitionsUrl }: Props): string {
  return `Join my private FootyCoach competition "${competitionName}"! Use the registration key ${registrationKey} at ${competitionsUrl}`;
}

/** Invite to a private competition by email, WhatsApp, Facebook, Twitter or Instagram. */
export function InviteButtons(props: Props) {
  return (
    <ShareButtons
      text={inviteText(props)}
      url={props.competitionsUrl}
      subject="Join my FootyCoach competition"
      labelFor={(network) => `Invite to ${props.competitionName} by ${network}`}
    />
  );
}
