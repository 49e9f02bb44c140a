/**
 * The FootyCoach logo: the mark (a shield holding a pitch's halfway line and centre circle, the ball on the
 * centre spot, and a coach's chevron above it) and the wordmark, set in the app's font. Colours come from CSS
 * (.logo-*, app/styles/app/logo.css), so the same component serves light pages, the dark pitch-green shell
 * and the dark theme.
 */

/** The mark alone (decorative: the wordmark or an accessible name beside it says what it is). */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      className={className ? `logo-mark ${className}` : "logo-mark"}
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <path className="logo-shield" d="M16 1.5 28.5 5.75V15c0 7.6-5.2 13.2-12.5 15.5C8.7 28.2 3.5 22.6 3.5 15V5.75Z" />
      <g className="logo-lines" fill="none" strokeWidth="1.75" strokeLinecap="round">
        <path d="M3.5 17h25" />
        <circle cx="16" cy="17" r="5.25" />
        <path d="m11.5 9.25 4.5-3 4.5 3" strokeLinejoin="round" />
      </g>
      <circle className="logo-ball" cx="16" cy="17" r="2" />
    </svg>
  );
}

/** Mark + wordmark. `tone` picks the colours: "light" on page backgrounds, "on-dark" in the pitch-green shell. */
export function Logo({
  size = 32,
  tone = "light",
  className,
  wordmarkClassName,
}: {
  size?: number;
  tone?: "light" | "on-dark";
  className?: string;
  /** Extra class on the wordmark (the collapsible sidebar hides it with .nav-label). */
  wordmarkClassName?: string;
}) {
  return (
    <span className={["logo", `logo-${tone}`, className].filter(Boolean).join(" ")}>
      <LogoMark size={size} />
      <span className={wordmarkClassName ? `logo-wordmark ${wordmarkClassName}` : "logo-wordmark"}>
        Footy<span className="logo-wordmark-accent">Coach</span>
      </span>
    </span>
  );
}
