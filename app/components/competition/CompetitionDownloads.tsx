/** The creator's and admins' CSV downloads (decision 030): plain links, so the browser saves what the server streams. */
export function CompetitionDownloads({ competitionId }: { competitionId: string }) {
  return (
    <section className="card" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Downloads</h2>
      <p className="muted">For the organiser: the standings, and every pick of the match days whose deadline has passed.</p>
      <p className="archive-actions">
        <a className="btn btn-secondary" href={`/competition/${competitionId}/standings.csv`} download>
          Standings (CSV)
        </a>
        <a className="btn btn-secondary" href={`/competition/${competitionId}/picks.csv`} download>
          Picks (CSV)
        </a>
      </p>
    </section>
  );
}
