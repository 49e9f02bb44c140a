import { teamBadge, textColourOn } from "~/lib/team-badges";

/**
 * A club badge drawn by the app: a round badge in the club's colours with its three-letter code. Decorative
 * (aria-hidden): the team's name is always written next to it.
 */
export function TeamBadge({ team, size = 28 }: { team: string; size?: number }) {
  const { code, primary, secondary } = teamBadge(team);
  return (
    <svg className="team-badge" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill={primary} stroke={secondary} strokeWidth="2" />
      <text
        x="16"
        y="16"
        dy="0.35em"
        textAnchor="middle"
        fontSize="10"
        fontWeight="700"
        fontFamily="system-ui, sans-serif"
        fill={textColourOn(primary)}
      >
        {code}
      </text>
    </svg>
  );
}
