import { capitalise } from "~/lib/capitalise";
import type { CompetitionInfo } from "~/models/competition-rows.server";

/** The Details tab: league, season, type and status. */
export function DetailsPanel({ competition: c }: { competition: CompetitionInfo }) {
  return (
    <dl className="kv">
      <dt>League</dt>
      <dd>{c.league}</dd>
      <dt>Season</dt>
      <dd>{c.season}</dd>
      <dt>Type</dt>
      <dd>{c.type === "season" ? "Season" : "Knockout"}</dd>
      <dt>Status</dt>
      <dd>{capitalise(c.status)}</dd>
    </dl>
  );
}
