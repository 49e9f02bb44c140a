/**
 * The rules file's "The organiser's rules", written out a second time as a plain reference model, independent of
 * the SQL: the table tests (rules-processing.test.ts) play the same match days through the database and through
 * this model for every combination of rules and expect the same standings. Nothing here is read by the app.
 */

export type Score = readonly [number, number] | "P";

export interface OracleFixture {
  matchDay: number;
  home: string;
  away: string;
  kickoff: Date;
  score: Score | null; // null: not played
}

export interface KnockoutRules {
  lives: number;
  draws: "costs-life" | "through";
  missedPick: "costs-life" | "auto";
  everyoneOut: "rollover" | "joint";
}

export interface SeasonRules {
  win: number;
  draw: number;
  loss: number;
  joker: boolean;
}

/** name -> match day -> team (the players' own picks and plans). */
export type Picks = Record<string, Record<number, string>>;

export interface KnockoutOutcome {
  /** name -> "active|lost=n" | "eliminated@md|lost=n" | "completed|lost=n" */
  members: Record<string, string>;
  /** "name@md=team" of every auto-pick, sorted */
  autoPicks: string[];
  /** "name@md:outcome" of every life lost, sorted */
  lifeLosses: string[];
  status: "active" | "inactive";
  winner: string | null;
  currentMatchDay: number;
}

const HOUR = 3_600_000;

/** The match day's deadline: its first kickoff minus one hour. */
function deadlineOf(fixtures: readonly OracleFixture[], md: number): Date {
  const first = Math.min(...fixtures.filter((f) => f.matchDay === md).map((f) => f.kickoff.getTime()));
  return new Date(first - HOUR);
}

/** The league's own table before a moment: points 3/1/0, goal difference, goals for, then name. */
export function leagueTable(fixtures: readonly OracleFixture[], before: Date): string[] {
  const rows = new Map<string, { points: number; gd: number; gf: number }>();
  for (const f of fixtures) for (const t of [f.home, f.away]) if (!rows.has(t)) rows.set(t, { points: 0, gd: 0, gf: 0 });
  for (const f of fixtures) {
    if (!f.score || f.score === "P" || f.kickoff.getTime() >= before.getTime()) continue;
    const [h, a] = f.score;
    for (const [team, mine, theirs] of [
      [f.home, h, a],
      [f.away, a, h],
    ] as const) {
      const r = rows.get(team)!;
      r.points += mine > theirs ? 3 : mine === theirs ? 1 : 0;
      r.gd += mine - theirs;
      r.gf += mine;
    }
  }
  return [...rows.entries()]
    .sort(([an, a], [bn, b]) => b.points - a.points || b.gd - a.gd || b.gf - a.gf || (an < bn ? -1 : an > bn ? 1 : 0))
    .map(([team]) => team);
}

/** win | draw | loss | postponed | no_pick for a team on a match day. */
function outcomeOf(fixtures: readonly OracleFixture[], md: number, team: string | undefined): string {
  if (!team) return "no_pick";
  const f = fixtures.find((x) => x.matchDay === md && (x.home === team || x.away === team))!;
  if (f.score === "P") return "postponed";
  const [h, a] = f.score!;
  const [mine, theirs] = team === f.home ? [h, a] : [a, h];
  return mine > theirs ? "win" : mine === theirs ? "draw" : "loss";
}

export function playKnockout(
  rules: KnockoutRules,
  names: readonly string[],
  picks: Picks,
  fixtures: readonly OracleFixture[],
  totalMatchDays: number,
): KnockoutOutcome {
  const state = new Map(names.map((n) => [n, { status: "active", lost: 0, out: null as number | null }]));
  const chosen: Picks = Object.fromEntries(names.map((n) => [n, { ...(picks[n] ?? {}) }]));
  const autoPicks: string[] = [];
  const lifeLosses: string[] = [];
  let status: "active" | "inactive" = "active";
  let winner: string | null = null;
  let md = 1;
  for (; md <= totalMatchDays; md++) {
    const active = names.filter((n) => state.get(n)!.status === "active");
    if (rules.missedPick === "auto") {
      const table = leagueTable(fixtures, deadlineOf(fixtures, md));
      const playing = new Set(fixtures.filter((f) => f.matchDay === md && f.score !== "P").flatMap((f) => [f.home, f.away]));
      for (const n of active) {
        if (chosen[n][md]) continue;
        const used = new Set(Object.values(chosen[n]));
        const team = table.find((t) => playing.has(t) && !used.has(t));
        if (team) {
          chosen[n][md] = team;
          autoPicks.push(`${n}@${md}=${team}`);
        }
      }
    }
    const costs = active.map((n) => {
      const o = outcomeOf(fixtures, md, chosen[n][md]);
      const cost = o === "loss" || o === "no_pick" || (o === "draw" && rules.draws !== "through");
      return { n, o, cost, last: rules.lives - state.get(n)!.lost <= 1 };
    });
    const outCount = costs.filter((c) => c.cost && c.last).length;
    const everyoneOut = outCount > 0 && outCount === active.length;
    let left = active.length;
    if (!everyoneOut) {
      for (const c of costs.filter((x) => x.cost)) {
        const s = state.get(c.n)!;
        s.lost += 1;
        lifeLosses.push(`${c.n}@${md}:${c.o}`);
        if (c.last) {
          s.status = "eliminated";
          s.out = md;
          left -= 1;
        }
      }
    }
    const joint = everyoneOut && rules.everyoneOut === "joint";
    if (joint || left === 1 || (left > 1 && md >= totalMatchDays)) {
      const still = names.filter((n) => state.get(n)!.status === "active").sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      winner = still[0] ?? null;
      for (const n of still) state.get(n)!.status = "completed";
      status = "inactive";
      break;
    }
    if (md >= totalMatchDays) {
      status = "inactive";
      break;
    }
  }
  const members = Object.fromEntries(
    names.map((n) => {
      const s = state.get(n)!;
      return [n, `${s.status === "eliminated" ? `eliminated@${s.out}` : s.status}|lost=${s.lost}`];
    }),
  );
  return {
    members,
    autoPicks: autoPicks.sort(),
    lifeLosses: lifeLosses.sort(),
    status,
    winner,
    currentMatchDay: Math.min(md, totalMatchDays),
  };
}

/** Season points per player: the organiser's points per pick, doubled on the player's joker match day. */
export function seasonPoints(
  rules: SeasonRules,
  names: readonly string[],
  picks: Picks,
  jokers: Record<string, number>,
  fixtures: readonly OracleFixture[],
): Record<string, number> {
  return Object.fromEntries(
    names.map((n) => {
      let total = 0;
      for (const [md, team] of Object.entries(picks[n] ?? {})) {
        const o = outcomeOf(fixtures, Number(md), team);
        const p = o === "win" ? rules.win : o === "draw" ? rules.draw : o === "loss" ? rules.loss : 0;
        total += p * (rules.joker && jokers[n] === Number(md) ? 2 : 1);
      }
      return [n, total];
    }),
  );
}
