import type { SeasonStanding } from "~/models/competition-rows.server";

/**
 * The six stat columns of a season table (W, D, L, GF, GA, Pts), shared by the competition page's standings and
 * the season leaderboard so both show the same columns in the same order with the same abbreviations.
 */
const SEASON_STATS = [
  { key: "wins", abbr: "W", title: "Wins" },
  { key: "draws", abbr: "D", title: "Draws" },
  { key: "losses", abbr: "L", title: "Losses" },
  { key: "goalsFor", abbr: "GF", title: "Goals for" },
  { key: "goalsAgainst", abbr: "GA", title: "Goals against" },
  { key: "points", abbr: "Pts", title: "Points" },
] as const satisfies readonly { key: keyof SeasonStanding; abbr: string; title: string }[];

export function SeasonStatHeadings() {
  return (
    <>
      {SEASON_STATS.map((stat) => (
        <th key={stat.key} scope="col" className="numeric">
          <abbr title={stat.title}>{stat.abbr}</abbr>
        </th>
      ))}
    </>
  );
}

/** `labelled` adds the data-label that a responsive-table prints before each value when rows become cards. */
export function SeasonStatCells({ standing, labelled = false }: { standing: SeasonStanding; labelled?: boolean }) {
  return (
    <>
      {SEASON_STATS.map((stat) => (
        <td key={stat.key} data-label={labelled ? stat.abbr : undefined} className="numeric">
          {standing[stat.key]}
        </td>
      ))}
    </>
  );
}
