/** The Rules tab: points and tickets as the game rules state them. */
export function RulesPanel() {
  return (
    <div className="scout-rules">
      <h2>Rules</h2>
      <h3>Points</h3>
      <p>Points are awarded for each fixture that is complete:</p>
      <ul>
        <li>Exact score: 5 points.</li>
        <li>
          Otherwise 2 points if either team&apos;s goal count is right, plus 1 point if the result (home win, draw, away win) is right, so
          at most 3.
        </li>
        <li>Postponed or abandoned fixtures: 0 points, and they are not counted.</li>
        <li>Scores after 90 minutes only: extra time and penalties are excluded.</li>
      </ul>
      <p>Result badges: Exact! (5), Stacked (3), Goals (2), Result (1), Miss (0), and Pending until the fixture has a score.</p>
      <h3>Lock</h3>
      <p>
        Predictions lock at the deadline of the competition&apos;s current match day, one hour before its first kickoff. After it no entry
        may be created and no prediction saved or changed.
      </p>
      <h3>Tickets</h3>
      <ul>
        <li>
          Every player holds one FootyCoach ticket for each active Scout competition; redeeming it creates an entry, and a fresh FootyCoach
          ticket for that competition is granted for the next match day (so one free entry per match day).
        </li>
        <li>Referral tickets are earned one per referred friend, never expire and work on any Scout competition.</li>
        <li>Redeeming uses a FootyCoach ticket first, then a referral ticket.</li>
        <li>At most 10 entries per player per competition per match day.</li>
      </ul>
      <h3>Leaderboards</h3>
      <ul>
        <li>An entry&apos;s total points and exact count are the sums over its predictions.</li>
        <li>Match day leaderboard: total points, then exact count, then the earliest entry.</li>
        <li>
          Season leaderboard: for each player the best entry of each match day, summed; it shows the index of the best entry of the latest
          match day.
        </li>
      </ul>
    </div>
  );
}
