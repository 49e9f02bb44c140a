/**
 * Demo data, dated relative to `now`, loaded only into a database without accounts.
 *
 *   DATABASE_URL=postgres://... [SEED_NOW=2026-11-18T10:00:00Z] npx tsx scripts/db/seed.ts
 *
 * - Accounts (password "footycoach", one bcrypt hash computed in SQL and reused): player@footycoach.test
 *   (DemoPlayer), admin@footycoach.test (DemoAdmin, role admin) and 56 more players, all with complete profiles.
 * - Premier League 2025/26: the 20 clubs in a 38-match-day double round robin (circle method), one match day a
 *   week with UK kickoff slots (day 1 12:30, 15:00 x5, 17:30; day 2 14:00, 16:30; day 3 20:00, UK local time
 *   stored in UTC). Match day CURRENT_MATCH_DAY starts on the UTC calendar day 3 days after `now` (so its first
 *   kickoff is 2.5 to 3.5 days ahead and selection is open; seeded on a Wednesday the three days are Saturday,
 *   Sunday and Monday); earlier match days are complete with deterministic scores.
 * - Competitions (all at the current match day): an open and a running public knockout (the running one with
 *   eliminations that follow the picks and results), an open and a running public season (picks for every past
 *   match day), DemoPlayer's private knockout, and an active Scout competition with a prize (every player holds
 *   its FootyCoach ticket; DemoPlayer also two referral tickets from two referred friends). Scout entries with
 *   predictions on the last three completed match days (scored at commit; DemoPlayer's latest shows every
 *   badge) from DemoPlayer and 55 others, and hidden entries of others on the open current match day.
 * Deterministic given `now` (account and competition ids and referral codes too), except the bcrypt salt and
 * the ids of rows that take a database default.
 */
import { createHash } from "node:crypto";
import postgres from "postgres";
import { runIfMain } from "./run-main";

export const DEMO_PASSWORD = "footycoach";
export const LEAGUE = "Premier League";
export const SEASON = "2025/26";
export const TOTAL_MATCH_DAYS = 38;
export const CURRENT_MATCH_DAY = 12;

export const CLUBS = [
  "Arsenal",
  "Aston Villa",
  "AFC Bournemouth",
  "Brentford",
  "Brighton & Hove Albion",
  "Burnley",
  "Chelsea",
  "Crystal Palace",
  "Everton",
  "Fulham",
  "Leeds United",
  "Liverpool",
  "Manchester City",
  "Manchester United",
  "Newcastle United",
  "Nottingham Forest",
  "Sunderland",
  "Tottenham Hotspur",
  "West Ham United",
  "Wolverhampton Wanderers",
] as const;

export const DEMO_ACCOUNTS = {
  player: { email: "player@footycoach.test", username: "DemoPlayer" },
  admin: { email: "admin@footycoach.test", username: "DemoAdmin" },
} as const;

export const PRIVATE_REGISTRATION_KEY = "MATES234";

const OTHER_USERNAMES = [
  "AlexHunter",
  "BethanyCole",
  "CallumReid",
  "DanielleOkafor",
  "EthanMarsh",
  "FreyaLawson",
  "GeorgeWhitfield",
  "HannahBriggs",
  "IsaacPatel",
  "JasmineKhan",
  "KieranDoyle",
  "LaylaMorgan",
  "MasonClarke",
  "NiamhGallagher",
  "OliverStone",
  "PriyaSharma",
  "QuinnTaylor",
  "RhysEvans",
  "SophieTurner",
  "TomasNowak",
  "UmarSiddiqui",
  "VictoriaHale",
  "WillBarnes",
  "XanderPrice",
  "YasminAli",
  "ZacHughes",
  "AmeliaFrost",
  "BenCarter",
  "ChloeAdams",
  "DevRaman",
  // Scout regulars (no knockout or season memberships)
  "EllaMcKenzie",
  "FinnOBrien",
  "GraceOkoro",
  "HarveyLane",
  "IslaFerguson",
  "JackPemberton",
  "KaraSingh",
  "LiamOsei",
  "MaisieHolt",
  "NoahBrennan",
  "OrlaQuinn",
  "PeterKowalski",
  "RosieBlake",
  "SamirHaddad",
  "TillyWard",
  "ArjunMehta",
  "BeaRossi",
  "CarlosMendes",
  "DaisyFletcher",
  "EmekaNwosu",
  "FionaWalsh",
  "GabrielSousa",
  "HollyPearce",
  "IvanPetrov",
  "JunoReyes",
  "KaiAnderson",
];

// Kickoff slots of one match day: [day offset from the match day's first day, UK local time].
const SLOTS: Array<[number, number, number]> = [
  [0, 12, 30],
  [0, 15, 0],
  [0, 15, 0],
  [0, 15, 0],
  [0, 15, 0],
  [0, 15, 0],
  [0, 17, 30],
  [1, 14, 0],
  [1, 16, 30],
  [2, 20, 0],
];

// -------------------------------------------------------------------------------------------------------------
// Deterministic helpers

/** mulberry32: small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poisson(rand: () => number, lambda: number, max: number): number {
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rand();
  while (p > limit && k < max) {
    k++;
    p *= rand();
  }
  return k;
}

/** A stable UUID for a demo object (so demo ids are the same on every load). */
export function demoId(name: string): string {
  const h = createHash("sha256").update(`footycoach-demo:${name}`).digest("hex");
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
function demoCode(name: string): string {
  const h = createHash("sha256").update(`footycoach-code:${name}`).digest();
  let code = "";
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[h[i] % 32];
  return code;
}

/** Last Sunday of a month (UTC date parts). */
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return last.getUTCDate() - last.getUTCDay();
}

/** UK local wall time -> UTC instant (GMT, or BST from the last Sunday of March to the last Sunday of
 * October; kickoffs are never near the 01:00 switch). */
export function ukLocalToUtc(year: number, month: number, day: number, hour: number, minute: number): Date {
  const key = month * 100 + day;
  const bst = key >= 2 * 100 + lastSunday(year, 2) && key < 9 * 100 + lastSunday(year, 9);
  return new Date(Date.UTC(year, month, day, hour - (bst ? 1 : 0), minute));
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

// -------------------------------------------------------------------------------------------------------------
// The plan (pure): everything to insert, computed from `now`

export interface DemoFixture {
  match_day: number;
  home_team: string;
  away_team: string;
  kickoff_time: Date;
  home_score: number | null;
  away_score: number | null;
  status: "pending" | "complete";
  result: "home_win" | "away_win" | "draw" | null;
}

export interface DemoPlayer {
  id: string;
  email: string;
  username: string;
  role: "player" | "admin";
  date_of_birth: string;
  gender: string;
  gender_self_describe: string | null;
  referral_code: string;
}

export interface DemoCompetition {
  id: string;
  name: string;
  type: "knockout" | "season" | "scout";
  visibility: "public" | "private";
  registration_key: string | null;
  start_match_day: number;
  registration_status: "open" | "closed";
  created_by: string;
  prize: string;
  prize_title: string | null;
  prize_description: string | null;
  prize_terms_url: string | null;
  prize_image_url: string | null;
}

export interface DemoMembership {
  user_id: string;
  competition_id: string;
  match_day: number;
  status: "active" | "eliminated";
  knocked_out_on: number | null;
}

export interface DemoPick {
  user_id: string;
  competition_id: string;
  match_day: number;
  selected_team: string;
  created_at: Date;
}

/** A Scout entry on a match day, with its predictions (fixtures keyed by match day and home team). */
export interface DemoScoutEntry {
  id: string;
  user_id: string;
  match_day: number;
  entry_index: number;
  created_at: Date;
  predictions: Array<{ home_team: string; home_goals: number; away_goals: number }>;
}

export interface DemoPlan {
  now: Date;
  currentMatchDay: number;
  players: DemoPlayer[];
  fixtures: DemoFixture[];
  competitions: DemoCompetition[];
  memberships: DemoMembership[];
  picks: DemoPick[];
  scoutEntries: DemoScoutEntry[];
  /** The players who signed up with DemoPlayer's referral code (each earned DemoPlayer a referral ticket). */
  referredByDemo: string[];
}

/** Double round robin by the circle method: 19 rounds where every pair meets once, then the same rounds with
 * home and away swapped. Home/away alternate within the first half so no club has long home runs. */
export function doubleRoundRobin(teams: readonly string[]): Array<Array<[string, string]>> {
  const n = teams.length;
  const ring = [...teams];
  const first: Array<Array<[string, string]>> = [];
  for (let round = 0; round < n - 1; round++) {
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i];
      const b = ring[n - 1 - i];
      const swap = i === 0 ? round % 2 === 1 : i % 2 === 1;
      pairs.push(swap ? [b, a] : [a, b]);
    }
    first.push(pairs);
    ring.splice(1, 0, ring.pop()!); // keep ring[0], rotate the rest
  }
  const second = first.map((pairs) => pairs.map(([h, a]) => [a, h] as [string, string]));
  return [...first, ...second];
}

export function buildDemoPlan(now: Date, currentMatchDay = CURRENT_MATCH_DAY): DemoPlan {
  // Fixtures -------------------------------------------------------------------------------------------------
  const scoreRand = prng(20252026);
  const orderRand = prng(38);
  const clubs = [...CLUBS];
  for (let i = clubs.length - 1; i > 0; i--) {
    const j = Math.floor(orderRand() * (i + 1));
    [clubs[i], clubs[j]] = [clubs[j], clubs[i]];
  }
  const rounds = doubleRoundRobin(clubs);

  // The current match day starts on the (UTC) calendar day three days after now; one match day per week.
  // Its weekday therefore follows `now` (a Wednesday `now` gives Saturday/Sunday/Monday).
  const start = new Date(now.getTime() + 3 * 86_400_000);
  const fixtures: DemoFixture[] = [];
  rounds.forEach((pairs, r) => {
    const md = r + 1;
    const firstDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 7 * (md - currentMatchDay)));
    pairs.forEach(([home, away], i) => {
      const [dayOffset, hour, minute] = SLOTS[i];
      const kickoff = ukLocalToUtc(firstDay.getUTCFullYear(), firstDay.getUTCMonth(), firstDay.getUTCDate() + dayOffset, hour, minute);
      const hs = poisson(scoreRand, 1.55, 7);
      const as = poisson(scoreRand, 1.2, 7);
      const past = md < currentMatchDay;
      fixtures.push({
        match_day: md,
        home_team: home,
        away_team: away,
        kickoff_time: kickoff,
        home_score: past ? hs : null,
        away_score: past ? as : null,
        status: past ? "complete" : "pending",
        result: past ? (hs > as ? "home_win" : hs < as ? "away_win" : "draw") : null,
      });
    });
  });
  const byMatchDay = new Map<number, DemoFixture[]>();
  for (const f of fixtures) byMatchDay.set(f.match_day, [...(byMatchDay.get(f.match_day) ?? []), f]);
  const firstKickoff = (md: number) => Math.min(...byMatchDay.get(md)!.map((f) => f.kickoff_time.getTime()));
  const won = (md: number, team: string) =>
    byMatchDay.get(md)!.some((f) => (f.home_team === team && f.result === "home_win") || (f.away_team === team && f.result === "away_win"));
  const teamsOf = (md: number) => byMatchDay.get(md)!.flatMap((f) => [f.home_team, f.away_team]);
  /** A believable moment to have picked: a day or two before the match day's deadline (capped at now). */
  const pickedAt = (md: number, salt: number) =>
    new Date(Math.min(now.getTime() - 3_600_000, firstKickoff(md) - 3_600_000 - (20 + (salt % 30)) * 3_600_000));

  // Players --------------------------------------------------------------------------------------------------
  const genders: Array<[string, string | null]> = [
    ["male", null],
    ["female", null],
    ["nonbinary", null],
    ["prefer-not-to-say", null],
    ["self-describe", "Genderfluid"],
  ];
  const people = [
    { ...DEMO_ACCOUNTS.player, role: "player" as const },
    { ...DEMO_ACCOUNTS.admin, role: "admin" as const },
    ...OTHER_USERNAMES.map((username, i) => ({
      email: `player${String(i + 1).padStart(2, "0")}@footycoach.test`,
      username,
      role: "player" as const,
    })),
  ];
  const players: DemoPlayer[] = people.map((p, i) => {
    const [gender, selfDescribe] = i === 0 ? genders[0] : i === 1 ? genders[1] : genders[i % genders.length];
    return {
      id: demoId(`account:${p.email}`),
      email: p.email,
      username: p.username,
      role: p.role,
      date_of_birth: `${1966 + ((i * 7) % 34)}-${String((i % 12) + 1).padStart(2, "0")}-${String(((i * 5) % 28) + 1).padStart(2, "0")}`,
      gender,
      gender_self_describe: selfDescribe,
      referral_code: demoCode(p.email),
    };
  });
  const demoPlayer = players[0];
  const admin = players[1];
  const others = players.slice(2);

  // Competitions ---------------------------------------------------------------------------------------------
  const cmd = currentMatchDay;
  const competition = (
    c: Omit<
      DemoCompetition,
      "id" | "prize" | "prize_title" | "prize_description" | "prize_terms_url" | "prize_image_url" | "registration_key" | "visibility"
    > &
      Partial<DemoCompetition>,
  ): DemoCompetition => ({
    id: demoId(`competition:${c.name}`),
    visibility: "public",
    registration_key: null,
    prize: "Bragging Rights!",
    prize_title: null,
    prize_description: null,
    prize_terms_url: null,
    prize_image_url: null,
    ...c,
  });
  const koOpen = competition({
    name: "Last One Standing",
    type: "knockout",
    start_match_day: cmd,
    registration_status: "open",
    created_by: admin.id,
    prize: "A FootyCoach scarf and bragging rights",
  });
  const koRunning = competition({
    name: "Autumn Survivor",
    type: "knockout",
    start_match_day: cmd - 3,
    registration_status: "closed",
    created_by: admin.id,
  });
  const seasonOpen = competition({
    name: "Second Half Sprint",
    type: "season",
    start_match_day: cmd,
    registration_status: "open",
    created_by: admin.id,
  });
  const seasonRunning = competition({
    name: "Premier League Season Challenge",
    type: "season",
    start_match_day: 1,
    registration_status: "closed",
    created_by: admin.id,
    prize: "Season champion's trophy",
  });
  const privateKo = competition({
    name: "DemoPlayer's Mates",
    type: "knockout",
    visibility: "private",
    registration_key: PRIVATE_REGISTRATION_KEY,
    start_match_day: cmd,
    registration_status: "open",
    created_by: demoPlayer.id,
  });
  const scout = competition({
    name: "The Scout: Premier League",
    type: "scout",
    start_match_day: 1,
    registration_status: "open",
    created_by: admin.id,
    prize_title: "Signed match ball",
    prize_description: "The season's top Scout wins a match ball signed by a Premier League squad.",
    prize_terms_url: "/terms",
    prize_image_url: "/icon-512.png",
  });
  const competitions = [koOpen, koRunning, seasonOpen, seasonRunning, privateKo, scout];

  const memberships: DemoMembership[] = [];
  const picks: DemoPick[] = [];
  const rand = prng(1207);
  const pickFrom = <T>(list: T[]) => list[Math.floor(rand() * list.length)];

  // Running knockout: picks for start..current-1 follow the knockout rules against the seeded results.
  {
    const members = [demoPlayer, ...others.slice(0, 16)];
    const used = new Map<string, Set<string>>(members.map((m) => [m.id, new Set<string>()]));
    const out = new Map<string, number>();
    for (let md = koRunning.start_match_day; md < cmd; md++) {
      const stillIn = members.filter((m) => !out.has(m.id));
      const losers: string[] = [];
      stillIn.forEach((m, i) => {
        const available = teamsOf(md).filter((t) => !used.get(m.id)!.has(t));
        const winners = available.filter((t) => won(md, t));
        const others_ = available.filter((t) => !won(md, t));
        // DemoPlayer always survives; the rest pick a winner nine times in ten.
        const wantWin = m.id === demoPlayer.id || rand() < 0.9;
        const team = wantWin && winners.length ? pickFrom(winners) : others_.length ? pickFrom(others_) : pickFrom(available);
        used.get(m.id)!.add(team);
        picks.push({ user_id: m.id, competition_id: koRunning.id, match_day: md, selected_team: team, created_at: pickedAt(md, i) });
        if (!won(md, team)) losers.push(m.id);
      });
      // Roll-over: if everyone still in would go out on the same match day, nobody does.
      if (losers.length < stillIn.length) for (const id of losers) out.set(id, md);
    }
    for (const m of members) {
      const knockedOut = out.get(m.id) ?? null;
      memberships.push({
        user_id: m.id,
        competition_id: koRunning.id,
        match_day: koRunning.start_match_day,
        status: knockedOut ? "eliminated" : "active",
        knocked_out_on: knockedOut,
      });
    }
    // Current match day: some survivors have already picked (hidden from others until the deadline);
    // DemoPlayer has not, so the demo can pick.
    members
      .filter((m) => !out.has(m.id) && m.id !== demoPlayer.id)
      .forEach((m, i) => {
        if (i % 3 === 2) return;
        const team = pickFrom(teamsOf(cmd).filter((t) => !used.get(m.id)!.has(t)));
        picks.push({
          user_id: m.id,
          competition_id: koRunning.id,
          match_day: cmd,
          selected_team: team,
          created_at: new Date(now.getTime() - (i + 1) * 3_600_000),
        });
      });
  }

  // Running season: members picked on every past match day.
  {
    const members = [demoPlayer, admin, ...others.slice(0, 22)];
    for (const m of members)
      memberships.push({ user_id: m.id, competition_id: seasonRunning.id, match_day: 1, status: "active", knocked_out_on: null });
    for (let md = 1; md < cmd; md++) {
      members.forEach((m, i) => {
        const teams = teamsOf(md);
        const winners = teams.filter((t) => won(md, t));
        const team = rand() < 0.55 && winners.length ? pickFrom(winners) : pickFrom(teams);
        picks.push({ user_id: m.id, competition_id: seasonRunning.id, match_day: md, selected_team: team, created_at: pickedAt(md, i) });
      });
    }
    members.slice(2).forEach((m, i) => {
      if (i % 2 === 1) return;
      picks.push({
        user_id: m.id,
        competition_id: seasonRunning.id,
        match_day: cmd,
        selected_team: pickFrom(teamsOf(cmd)),
        created_at: new Date(now.getTime() - (i + 2) * 3_600_000),
      });
    });
  }

  // Open competitions: a few early joiners, some with a pick for the current match day.
  const joinOpen = (c: DemoCompetition, members: DemoPlayer[]) => {
    members.forEach((m, i) => {
      memberships.push({ user_id: m.id, competition_id: c.id, match_day: cmd, status: "active", knocked_out_on: null });
      if (i % 2 === 0 && m.id !== demoPlayer.id) {
        picks.push({
          user_id: m.id,
          competition_id: c.id,
          match_day: cmd,
          selected_team: pickFrom(teamsOf(cmd)),
          created_at: new Date(now.getTime() - (i + 1) * 5_400_000),
        });
      }
    });
  };
  joinOpen(koOpen, others.slice(16, 24));
  joinOpen(seasonOpen, [admin, ...others.slice(8, 18)]);
  joinOpen(privateKo, [demoPlayer, ...others.slice(24, 29)]);

  // Scout: DemoPlayer and 55 others with entries on the last three completed match days and, for most others,
  // on the current one (hidden until its lock). DemoPlayer's entry on the latest completed match day is filled
  // at load time to show every badge; the current match day is left for DemoPlayer to redeem a ticket.
  const scoutRand = prng(5150);
  const scoutEntries: DemoScoutEntry[] = [];
  const entrants = [demoPlayer, ...others.slice(0, 55)];
  for (const md of [cmd - 3, cmd - 2, cmd - 1, cmd]) {
    entrants.forEach((player, n) => {
      if (md === cmd && (player === demoPlayer || n % 3 === 0)) return;
      const count = player === demoPlayer ? 2 : 1 + Math.floor(scoutRand() * 3);
      for (let index = 0; index < count; index++) {
        const mine = player === demoPlayer && md === cmd - 1 && index === 0;
        scoutEntries.push({
          id: demoId(`scout:${player.id}:${md}:${index}`),
          user_id: player.id,
          match_day: md,
          entry_index: index,
          created_at: new Date(Math.min(now.getTime() - 60_000, firstKickoff(md) - (30 + ((n * 7 + index) % 60)) * 3_600_000)),
          predictions: mine
            ? []
            : byMatchDay.get(md)!.map((f) => ({
                home_team: f.home_team,
                home_goals: poisson(scoutRand, 1.5, 5),
                away_goals: poisson(scoutRand, 1.1, 5),
              })),
        });
      }
    });
  }
  const referredByDemo = [others[28].id, others[29].id];

  return { now, currentMatchDay: cmd, players, fixtures, competitions, memberships, picks, scoutEntries, referredByDemo };
}

// -------------------------------------------------------------------------------------------------------------
// Loading

/**
 * Loads the demo data when the database has no accounts yet; returns false (and changes nothing) otherwise.
 * One transaction; set-based inserts.
 */
/** A well-formed P-256 public key (the curve's generator point) for the placeholder subscriptions. */
const DEMO_PUSH_KEY = "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU";

export async function seedDemo(sql: postgres.Sql, now: Date): Promise<boolean> {
  const plan = buildDemoPlan(now);
  const result = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7301, 2), set_config('app.now', ${now.toISOString()}, true)`;
    const [{ has_accounts }] = await tx<{ has_accounts: boolean }[]>`
      select exists (select 1 from account.accounts) as has_accounts`;
    if (has_accounts) return false;

    const [{ hash }] = await tx<{ hash: string }[]>`
      select extensions.crypt(${DEMO_PASSWORD}, extensions.gen_salt('bf', 10)) as hash`;
    const createdAt = new Date(now.getTime() - 120 * 86_400_000);

    await tx`
      insert into account.accounts ${tx(
        plan.players.map((p) => ({
          id: p.id,
          email: p.email,
          password_hash: hash,
          created_at: createdAt,
          updated_at: createdAt,
          // Demo players confirmed their e-mail when they signed up, so they can log in.
          confirmed_at: createdAt,
        })),
      )}`;
    await tx`
      insert into public.profiles ${tx(
        plan.players.map((p) => ({
          id: p.id,
          email: p.email,
          username: p.username,
          date_of_birth: p.date_of_birth,
          gender: p.gender,
          gender_self_describe: p.gender_self_describe,
          time_zone: "Europe/London",
          role: p.role,
          referral_code: p.referral_code,
          created_at: createdAt,
          updated_at: createdAt,
        })),
      )}`;

    // The other demo players have notifications on with a placeholder Web Push subscription, so the scheduler's
    // reminders for those without a pick show in the development push outbox (/dev/outbox). The endpoints are
    // on the reserved .invalid domain, off every push service: with PUSH_PROVIDER=live the sender refuses them
    // (app/lib/push-services.ts) and removes them, contacting nothing.
    const subscribed = plan.players.filter((p) => p.role === "player").slice(1);
    await tx`
      insert into public.push_subscriptions ${tx(
        subscribed.map((p) => ({
          user_id: p.id,
          kind: "webpush",
          endpoint: `https://push.invalid/demo/${p.id}`,
          p256dh: DEMO_PUSH_KEY,
          auth: "ZGVtby1hdXRoLXNlY3JldA",
          created_at: createdAt,
          updated_at: createdAt,
        })),
      )}`;
    await tx`update public.profiles set notifications_enabled = true where id = any(${subscribed.map((p) => p.id)}::uuid[])`;

    const fixtureRows = await tx<{ id: string; match_day: number; home_team: string; away_team: string }[]>`
      insert into public.fixtures ${tx(
        plan.fixtures.map((f) => ({ league: LEAGUE, season: SEASON, ...f, created_at: createdAt, updated_at: createdAt })),
      )}
      returning id, match_day, home_team, away_team`;
    const fixtureOf = new Map<string, string>();
    for (const f of fixtureRows) {
      fixtureOf.set(`${f.match_day}|${f.home_team}`, f.id);
      fixtureOf.set(`${f.match_day}|${f.away_team}`, f.id);
    }

    const mdStart = (md: number) =>
      isoDate(new Date(Math.min(...plan.fixtures.filter((f) => f.match_day === md).map((f) => f.kickoff_time.getTime()))));
    await tx`
      insert into public.competitions ${tx(
        plan.competitions.map((c) => ({
          ...c,
          league: LEAGUE,
          season: SEASON,
          start_date: mdStart(c.start_match_day),
          total_match_days: TOTAL_MATCH_DAYS,
          current_match_day: plan.currentMatchDay,
          status: "active",
          created_at: new Date(Math.min(now.getTime(), new Date(mdStart(c.start_match_day)).getTime()) - 14 * 86_400_000),
        })),
      )}`;

    await tx`
      insert into public.user_selections ${tx(
        plan.memberships.map((m) => ({ ...m, league: LEAGUE, season: SEASON, joined_at: createdAt })),
      )}`;

    await tx`
      insert into public.team_selections ${tx(
        plan.picks.map((p) => {
          const fixtureId = fixtureOf.get(`${p.match_day}|${p.selected_team}`);
          if (!fixtureId) throw new Error(`seed: no fixture for ${p.selected_team} on match day ${p.match_day}`);
          return { ...p, fixture_id: fixtureId, prediction: "home_win", updated_at: p.created_at };
        }),
      )}`;
    // prediction is derived from the side by the table's trigger.

    // FootyCoach tickets: the database grants every player one for each active Scout competition (trigger).
    // DemoPlayer referred two friends: a referral ticket each.
    const demo = plan.players[0];
    const referrals = await tx<{ id: string }[]>`
      insert into public.referrals ${tx(plan.referredByDemo.map((id) => ({ referrer_id: demo.id, referred_id: id, created_at: createdAt })))}
      returning id`;
    await tx`
      insert into public.tickets ${tx(referrals.map((r) => ({ user_id: demo.id, ticket_type: "referral", referral_id: r.id, created_at: createdAt })))}`;

    const scout = plan.competitions.find((c) => c.type === "scout")!;
    await tx`
      insert into public.scout_entries ${tx(
        plan.scoutEntries.map((e) => ({
          id: e.id,
          competition_id: scout.id,
          user_id: e.user_id,
          match_day: e.match_day,
          entry_index: e.entry_index,
          created_at: e.created_at,
          updated_at: e.created_at,
        })),
      )}`;
    await tx`
      insert into public.scout_predictions ${tx(
        plan.scoutEntries.flatMap((e) =>
          e.predictions.map((p) => ({
            scout_entry_id: e.id,
            fixture_id: fixtureOf.get(`${e.match_day}|${p.home_team}`)!,
            home_goals: p.home_goals,
            away_goals: p.away_goals,
          })),
        ),
      )}`;
    // DemoPlayer's showcase entry: for each fixture the closest prediction worth the wanted points (Exact!,
    // Stacked, Goals, Result, Miss, twice over), chosen by the database's own points rule.
    const showcase = plan.scoutEntries.find((e) => e.user_id === demo.id && e.predictions.length === 0)!;
    await tx`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
      select ${showcase.id}, f.id, c.h, c.a
        from (select f.*, row_number() over (order by f.kickoff_time, f.id) as n from public.fixtures f
               where f.league = ${LEAGUE} and f.season = ${SEASON} and f.match_day = ${showcase.match_day}) f
        cross join lateral (
          select h, a from generate_series(0, 9) h, generate_series(0, 9) a
           order by private.scout_points(h, a, f.status, f.home_score, f.away_score) = (array[5, 3, 2, 1, 0])[1 + (f.n - 1) % 5] desc,
                    abs(h - f.home_score) + abs(a - f.away_score), h, a
           limit 1) c`;
    // Points, entry totals and season totals are filled at commit: the completed fixtures inserted above are
    // queued for Scout scoring (private.scout_scoring_queue).

    const admin = plan.players.find((p) => p.role === "admin")!;
    const day = (days: number) => isoDate(new Date(now.getTime() - days * 86_400_000));
    await tx`
      insert into public.release_notes ${tx([
        {
          version: "1.0.0",
          title: "Welcome to FootyCoach",
          content: "FootyCoach is live: join **knockout** and **season** competitions and pick a team every match day.",
          release_date: day(90),
          is_published: true,
          created_by: admin.id,
        },
        {
          version: "1.1.0",
          title: "The Scout arrives",
          content:
            "Predict exact scores in **The Scout**. Every player gets a free FootyCoach ticket each match day.\n\n- Exact score: 5 points\n- Right goals for one team: 2 points\n- Right result: 1 point",
          release_date: day(30),
          is_published: true,
          created_by: admin.id,
        },
        {
          version: "1.2.0",
          title: "Deadline reminders",
          content: "Push reminders 6 hours and 3 hours before a match day's deadline when you have not picked yet.",
          release_date: day(-7),
          is_published: false,
          created_by: admin.id,
        },
      ])}`;
    return true;
  });
  return result;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)");
    process.exit(2);
  }
  const now = process.env.SEED_NOW ? new Date(process.env.SEED_NOW) : new Date();
  if (Number.isNaN(now.getTime())) {
    console.error(`SEED_NOW is not a valid date: ${process.env.SEED_NOW}`);
    process.exit(2);
  }
  const sql = postgres(url, { max: 1, onnotice: () => {}, prepare: false });
  try {
    const seeded = await seedDemo(sql, now);
    console.log(
      seeded
        ? `Loaded demo data (now = ${now.toISOString()}, current match day ${CURRENT_MATCH_DAY}). Log in as ${DEMO_ACCOUNTS.player.email} or ${DEMO_ACCOUNTS.admin.email}, password "${DEMO_PASSWORD}".`
        : "Skipped: the database already has accounts.",
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

runIfMain(import.meta.url, main);
