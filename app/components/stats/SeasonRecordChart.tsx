import type { SeasonRecord } from "~/models/stats.server";

/** The parts of a pick record, in the order the bars and the table show them. */
const PARTS = [
  { key: "won", label: "Won" },
  { key: "drawn", label: "Drawn" },
  { key: "lost", label: "Lost" },
] as const;

const ROW = 30;
const BAR = 18;
const LABEL_WIDTH = 72;
const BAR_WIDTH = 216;
const TOTAL_WIDTH = 40;
const WIDTH = LABEL_WIDTH + BAR_WIDTH + TOTAL_WIDTH;

/** One sentence per season: what the chart shows, for its description (screen readers) and as the table's caption. */
export function recordSummary(seasons: SeasonRecord[]): string {
  return seasons.map((s) => `${s.season}: ${s.won} won, ${s.drawn} drawn, ${s.lost} lost.`).join(" ");
}

/**
 * The pick record per season as stacked bars, drawn by the app (plain SVG, no library): one row per season, its
 * won / drawn / lost picks as green, grey and red parts of a bar as long as the season's picks (scaled to the
 * busiest season). The SVG has a title and a description with every number, and the same numbers are in the table
 * below it, so nothing is only in the picture.
 */
export function SeasonRecordChart({ seasons }: { seasons: SeasonRecord[] }) {
  const most = Math.max(1, ...seasons.map((s) => s.won + s.drawn + s.lost));
  const height = Math.max(1, seasons.length) * ROW;
  return (
    <figure className="record-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        role="img"
        aria-labelledby="record-chart-title record-chart-desc"
        preserveAspectRatio="xMinYMin meet"
      >
        <title id="record-chart-title">Pick record per season</title>
        <desc id="record-chart-desc">{recordSummary(seasons)}</desc>
        {seasons.map((s, row) => {
          const y = row * ROW + (ROW - BAR) / 2;
          let x = LABEL_WIDTH;
          return (
            <g key={s.season}>
              <text x={0} y={y + BAR / 2} dominantBaseline="central" className="record-chart-label">
                {s.season}
              </text>
              {PARTS.map(({ key }) => {
                const width = (s[key] / most) * BAR_WIDTH;
                const part = <rect key={key} x={x} y={y} width={width} height={BAR} className={`record-chart-${key}`} />;
                x += width;
                return part;
              })}
              <text x={x + 6} y={y + BAR / 2} dominantBaseline="central" className="record-chart-label">
                {s.won + s.drawn + s.lost}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="record-chart-legend">
        {PARTS.map(({ key, label }) => (
          <span key={key} className="record-chart-key">
            <span className={`record-chart-swatch record-chart-${key}`} aria-hidden="true" />
            {label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The chart's numbers as a table. */
export function SeasonRecordTable({ seasons }: { seasons: SeasonRecord[] }) {
  return (
    <table className="table record-table">
      <caption className="visually-hidden">Pick record per season</caption>
      <thead>
        <tr>
          <th scope="col">Season</th>
          <th scope="col">Competitions</th>
          {PARTS.map(({ key, label }) => (
            <th key={key} scope="col">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {seasons.map((s) => (
          <tr key={s.season}>
            <th scope="row">{s.season}</th>
            <td>{s.competitions}</td>
            {PARTS.map(({ key }) => (
              <td key={key}>{s[key]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
