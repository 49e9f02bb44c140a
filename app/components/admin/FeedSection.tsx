import { Form } from "@remix-run/react";
import { useId } from "react";
import { SelectField } from "~/components/Field";
import { usePending } from "~/components/usePending";
// The loader hands loadFeed's view to this section unchanged, so its types are the props' types.
import type { FeedLeague, FeedLink, FeedView } from "~/models/feed.server";

interface Props {
  view: FeedView;
  /** Where the forms post (/admin/feed). */
  action: string;
  /** A refused action's message (shown without JavaScript too). */
  refused: { message: string | null } | null;
}

const SOURCE_NAMES = { admin: "admin panel", csv: "CSV upload" } as const;

function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** A one-button form (Sync now, Unlink, Accept feed, Keep mine) that says "Saving..." while it posts. */
function ActionButton(props: {
  action: string;
  intent: string;
  fields: Record<string, string>;
  label: string;
  name: string;
  primary?: boolean;
}) {
  const [key, value] = Object.entries(props.fields)[0];
  const pending = usePending(props.intent, { name: key, value });
  return (
    <Form method="post" action={props.action} className="inline-form">
      <input type="hidden" name="intent" value={props.intent} />
      <HiddenFields fields={props.fields} />
      <button
        type="submit"
        className={props.primary ? "btn btn-primary btn-sm" : "btn btn-secondary btn-sm"}
        aria-label={props.name}
        disabled={pending}
      >
        {pending ? "Saving..." : props.label}
      </button>
    </Form>
  );
}

function LinkRow({ league, link, action }: { league: string; link: FeedLink; action: string }) {
  const name = `${league} ${link.season}`;
  return (
    <tr>
      <th scope="row">{link.season}</th>
      <td>
        {link.linked ? "Linked" : "Unlinked"}
        {link.linked && link.syncRequested ? (
          <>
            <span className="badge badge-muted feed-badge">Sync requested</span>
            {link.syncExpected ? (
              <div className="feed-muted">
                will sync at <time dateTime={link.syncExpected.at}>{link.syncExpected.text}</time>
              </div>
            ) : null}
          </>
        ) : null}
      </td>
      <td>{link.lastSync ? <time dateTime={link.lastSync.at}>{link.lastSync.text}</time> : "Never"}</td>
      <td>
        {link.lastFixturesChanged} fixtures, {link.lastResultsChanged} results
        <div className="feed-muted">
          since linking: {link.fixturesChanged} fixtures, {link.resultsChanged} results ({link.requests} requests)
        </div>
      </td>
      <td>
        {link.lastError ? (
          <div className="feed-error">
            {link.lastError.message}
            <div className="feed-muted">
              <time dateTime={link.lastError.at}>{link.lastError.text}</time>
              {link.nextAttempt ? (
                <>
                  {" "}
                  · next try <time dateTime={link.nextAttempt.at}>{link.nextAttempt.text}</time>
                </>
              ) : null}
            </div>
          </div>
        ) : (
          "None"
        )}
      </td>
      <td className="feed-actions">
        {link.linked ? (
          <>
            <ActionButton
              action={action}
              intent="sync"
              fields={{ league, season: link.season }}
              label="Sync now"
              name={`Sync now ${name}`}
              primary
            />
            <ActionButton action={action} intent="unlink" fields={{ league, season: link.season }} label="Unlink" name={`Unlink ${name}`} />
          </>
        ) : (
          <ActionButton action={action} intent="link" fields={{ league, season: link.season }} label="Link" name={`Link ${name}`} primary />
        )}
      </td>
    </tr>
  );
}

function LeagueCard({ league, seasons, action }: { league: FeedLeague; seasons: readonly string[]; action: string }) {
  const id = useId();
  const linking = usePending("link", { name: "league", value: league.league });
  const unlinked = seasons.filter((s) => !league.links.some((l) => l.season === s && l.linked));
  return (
    <li className="card feed-league" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="feed-league-title">
        {league.league} <span className="badge badge-muted">feed code {league.code}</span>
      </h3>
      {league.links.length > 0 ? (
        <div className="feed-scroll">
          <table className="feed-table">
            <caption className="sr-only">{league.league}: the data feed by season</caption>
            <thead>
              <tr>
                <th scope="col">Season</th>
                <th scope="col">Status</th>
                <th scope="col">Last sync</th>
                <th scope="col">Changed by the last sync</th>
                <th scope="col">Last error</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {league.links.map((link) => (
                <LinkRow key={link.season} league={league.league} link={link} action={action} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="feed-muted">Not linked.</p>
      )}
      {unlinked.length > 0 ? (
        <Form method="post" action={action} className="feed-link-form">
          <input type="hidden" name="intent" value="link" />
          <input type="hidden" name="league" value={league.league} />
          <SelectField
            id={`${id}-season`}
            label={`Season to link (${league.league})`}
            name="season"
            options={unlinked}
            defaultValue={unlinked[0]}
          />
          <button type="submit" className="btn btn-primary" disabled={linking} aria-label={`Link ${league.league}`}>
            {linking ? "Saving..." : "Link"}
          </button>
        </Form>
      ) : null}
    </li>
  );
}

/** The Data Feed section: linked leagues, results to review, what the game kept against the feed. */
export function FeedSection({ view, action, refused }: Props) {
  return (
    <section aria-labelledby="feed-title" className="admin-section">
      <h2 id="feed-title">Data Feed</h2>
      <p className="feed-muted">
        Fixtures, kickoffs, live scores and results from football-data.org. The scheduler asks each linked league every 15 minutes, and
        every minute while its matches are on; Link and Sync now sync a league at once when the feed&apos;s request budget allows, else at
        the time shown. Results entered by hand are never overwritten: when the feed disagrees they are listed below for review.
      </p>
      {refused?.message ? (
        <div className="form-error" role="alert">
          {refused.message}
        </div>
      ) : null}

      <ul className="feed-leagues" aria-label="Leagues">
        {view.leagues.map((league) => (
          <LeagueCard key={league.league} league={league} seasons={view.seasons} action={action} />
        ))}
      </ul>

      <h3 className="admin-subtitle">Results to review</h3>
      {view.review.length === 0 ? (
        <p className="empty-state">No hand-entered result disagrees with the data feed.</p>
      ) : (
        <ul className="feed-review" aria-label="Results to review">
          {view.review.map((r) => {
            const match = `${r.homeTeam} v ${r.awayTeam}`;
            return (
              <li key={r.fixtureId} className="card feed-review-item" aria-label={match}>
                <div>
                  <strong>{match}</strong>
                  <div className="feed-muted">
                    {r.league} {r.season}, Match Day {r.matchDay}
                  </div>
                  <div>
                    Yours: {r.mine} ({SOURCE_NAMES[r.mineSource]}) · the data feed&apos;s: {r.feed}
                  </div>
                </div>
                <div className="feed-actions">
                  <ActionButton
                    action={action}
                    intent="accept"
                    fields={{ fixtureId: r.fixtureId }}
                    label="Accept feed"
                    name={`Accept feed ${match}`}
                    primary
                  />
                  <ActionButton
                    action={action}
                    intent="keep"
                    fields={{ fixtureId: r.fixtureId }}
                    label="Keep mine"
                    name={`Keep mine ${match}`}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <h3 className="admin-subtitle">Kept against the feed</h3>
      {view.flags.length === 0 ? (
        <p className="empty-state">Nothing the game kept against the data feed.</p>
      ) : (
        <ul className="feed-flags" aria-label="Kept against the feed">
          {view.flags.map((f) => (
            <li key={f.fixtureId} className="card">
              <strong>
                {f.homeTeam} v {f.awayTeam}
              </strong>{" "}
              <span className="feed-muted">
                ({f.league} {f.season}, Match Day {f.matchDay})
              </span>
              <div>{f.message}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
