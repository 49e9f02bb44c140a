/**
 * `npm run db:adopt` on the three imitations of the original project (issue 31): its tables with exactly the
 * spec's columns; the same with extra columns the spec does not list; the spec's columns with neither optional
 * view. Each adopts, keeps every eliminated player eliminated on the match day the original knew (its own
 * column, else its own view, else its picks and results), keeps private competitions private, and its players
 * sign in through the app's login and see their competitions.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adopt, formatReport, type AdoptReport } from "../../scripts/db/adopt";
import { logInThroughApp } from "../support/app-login";
import { asUser, connect, MIGRATIONS_DIR } from "../support/pg";
import {
  createSupabaseImitation,
  PEOPLE,
  PRIVATE_COMPETITIONS,
  seedOriginal,
  SMALL,
  type Imitation,
  type ImitationVariant,
} from "../support/supabase-imitation";

const kind = inject("dbKind");
const VARIANTS: ImitationVariant[] = ["spec", "extras", "no-views"];

/** The spec's columns of the original tables: part 1 section 3 and part 2 section 3 (their union), in its words. */
const SPEC_COLUMNS: Record<string, string> = {
  profiles: `id email role username full_name display_name name team_name date_of_birth gender time_zone analytics_consent
             analytics_consent_at notifications_enabled fcm_token fcm_token_updated_at`,
  competitions: `id name type league season start_date start_match_day current_match_day status registration_status
                 visibility registration_key prize knockout_winner created_by player_count created_at first_kickoff_time
                 total_match_days prize_title prize_description prize_terms_url prize_image_url`,
  user_selections: "id user_id competition_id league season match_day status",
  team_selections: "id user_id competition_id match_day fixture_id selected_team prediction created_at team",
  fixtures: "id league season match_day kickoff_time home_team away_team home_score away_score status result",
  matchdays: "league season match_day first_kickoff_time",
  release_notes: "id version title content release_date is_published created_by",
  scout_entries: "id competition_id user_id match_day league season entry_index total_points exact_count locked created_at",
  scout_predictions: "id scout_entry_id fixture_id home_goals away_goals points_awarded exact",
  tickets: "id user_id ticket_type target_competition_id used created_at",
  knockout_leaderboard_view: "competition_id user_id user_username status knocked_out_on current_selection",
  user_competition_stats_view: `competition_id competition competition_type user_id username first_kickoff_time rank wins
                                draws losses goals_for goals_against points has_selection current_selection status`,
};

/** The pick of a membership's last picked match day won (from the original's own fixtures). */
const LAST_PICK = `
  select us.user_id, us.competition_id, t.match_day as last_pick,
         case when f.home_team = coalesce(t.selected_team, t.team) then f.home_score > f.away_score
              else f.away_score > f.home_score end as won
    from public.user_selections us
    join lateral (select * from public.team_selections t where t.user_id = us.user_id and t.competition_id = us.competition_id
                   order by t.match_day desc limit 1) t on true
    join public.fixtures f on f.match_day = t.match_day and coalesce(t.selected_team, t.team) in (f.home_team, f.away_team)
   where us.status = 'eliminated'`;

describe.skipIf(kind !== "postgres").each(VARIANTS)("db:adopt on the '%s' imitation (real PostgreSQL only)", (variant) => {
  let imitation: Imitation;
  let owner: ReturnType<typeof connect>;
  let su: ReturnType<typeof connect>;
  let report: AdoptReport;
  /** "user competition" -> the match day the original says each eliminated player went out on. */
  const expected = new Map<string, number>();
  let eliminatedBefore = 0;

  beforeAll(async () => {
    imitation = await createSupabaseImitation(inject("dbAdminUrl"), `footy_adopt_${variant.replace("-", "_")}_${process.pid}`, { variant });
    await seedOriginal(imitation.superUrl, SMALL);
    owner = connect(imitation.url, { max: 2 });
    su = connect(imitation.superUrl, { max: 1 });
    // What the original says, read the way its own app would have shown it.
    const says =
      variant === "extras"
        ? await su<{ key: string; md: number }[]>`select user_id || ' ' || competition_id as key, knocked_out_on as md
                                                   from public.user_selections where status = 'eliminated'`
        : variant === "spec"
          ? await su<{ key: string; md: number }[]>`select user_id || ' ' || competition_id as key, knocked_out_on as md
                                                     from public.knockout_leaderboard_view where status = 'Eliminated'`
          : // no view: the first match day after a winning last pick (not picking), or the losing last pick's
            await su.unsafe<{ key: string; md: number }[]>(
              `select user_id || ' ' || competition_id as key, last_pick + (case when won then 1 else 0 end) as md from (${LAST_PICK}) x`,
            );
    for (const r of says) expected.set(r.key, r.md);
    [{ n: eliminatedBefore }] = await su<
      { n: number }[]
    >`select count(*)::int as n from public.user_selections where status = 'eliminated'`;
    report = await adopt(owner, MIGRATIONS_DIR);
  }, 180_000);

  afterAll(async () => {
    await owner?.end({ timeout: 5 });
    await su?.end({ timeout: 5 });
    await imitation?.drop();
  });

  it("had exactly the spec's columns (spec, no-views) or more (extras), and the views only where the variant has them", async () => {
    const rows = await su<{ table_name: string; columns: string[] }[]>`
      select table_name::text, array_agg(column_name::text) as columns
        from information_schema.columns where table_schema = 'original_app' and table_name = any(${Object.keys(SPEC_COLUMNS)})
       group by 1`;
    const found = Object.fromEntries(rows.map((r) => [r.table_name, [...r.columns].sort()]));
    for (const [table, list] of Object.entries(SPEC_COLUMNS)) {
      const spec = list.split(/\s+/).sort();
      if (table.endsWith("_view") && variant === "no-views") expect(found[table], table).toBeUndefined();
      else if (variant === "extras") expect(found[table], table).toEqual(expect.arrayContaining(spec));
      else expect(found[table], table).toEqual(spec);
    }
    if (variant === "extras") expect(found.user_selections).toContain("knocked_out_on");
  });

  it("adopts, carrying every row of a live player and keeping every original row in original_app", async () => {
    expect(report.state).toBe("adopted");
    for (const t of ["profiles", "competitions", "fixtures", "user_selections", "team_selections", "tickets", "scout_entries"]) {
      const [{ kept, carried }] = await su.unsafe<{ kept: number; carried: number }[]>(
        `select count(*)::int as kept, count(c.id)::int as carried from original_app.${t} o left join public.${t} c on c.id = o.id`,
      );
      expect(kept, t).toBe(report.before[t]);
      expect(carried + (report.notCarried[t] ?? 0), t).toBe(kept);
    }
    // Only the soft-deleted player's own rows stay behind.
    const [{ n }] = await su<{ n: number }[]>`
      select count(*)::int as n from original_app.user_selections o
       where not exists (select 1 from public.user_selections c where c.id = o.id)
         and o.user_id not in (select id from auth.users where deleted_at is not null)`;
    expect(n).toBe(0);
  });

  it("keeps every eliminated player eliminated, on the match day the original says", async () => {
    expect(eliminatedBefore).toBeGreaterThan(1);
    const after = await owner<{ key: string; md: number }[]>`
      select user_id || ' ' || competition_id as key, knocked_out_on as md from public.user_selections where status = 'eliminated'`;
    expect(after.length).toBe(eliminatedBefore);
    expect(new Map(after.map((r) => [r.key, r.md]))).toEqual(expected);
    const source = { spec: "fromView", extras: "fromColumn", "no-views": "fromPicks" } as const;
    expect(report.eliminations?.[source[variant]]).toBe(eliminatedBefore);
    expect(report.knockoutView).toBe(variant === "no-views" ? "absent" : "read");
    expect(formatReport(report)).toMatch(/Elimination match days: /);
  });

  it("ned, out for not picking on match day 3 after two wins: the view's word when there is one, else the picks'", async () => {
    const [ned] = await owner<{ status: string; knocked_out_on: number }[]>`
      select us.status, us.knocked_out_on from public.user_selections us join account.accounts a on a.id = us.user_id
       where a.email = ${PEOPLE.ned.email}`;
    // the spec view says the last pick's match day (2); his own column and the results say 3
    expect(ned).toEqual({ status: "eliminated", knocked_out_on: variant === "spec" ? 2 : 3 });
  });

  it("reads the columns beyond the spec only where the original has them", async () => {
    const extras = ["public.user_selections.knocked_out_on", "public.user_selections.created_at", "public.profiles.created_at"];
    for (const c of extras) expect(report.optionalColumns?.includes(c), c).toBe(variant === "extras");
    // Supabase's auth.users has them all; a column nobody reads stays in original_app.
    expect(report.optionalColumns).toEqual(expect.arrayContaining(["auth.users.deleted_at", "auth.users.banned_until"]));
    if (variant === "extras") {
      const [{ n }] = await su<{ n: number }[]>`select count(*)::int as n from original_app.notifications`;
      expect(n).toBe(0);
      expect(report.moved).toEqual(expect.arrayContaining(["table public.notifications", "type public.ticket_kind"]));
    }
  });

  it("signs the players in through the app: the login, the session check and My Competitions under RLS", async () => {
    const alice = await logInThroughApp(imitation.url, PEOPLE.alice.email, PEOPLE.alice.password);
    expect(alice).toMatchObject({ status: 302, user: { username: "alice" } });
    expect(alice.competitions.map((c) => c.name)).toEqual(expect.arrayContaining(["Alice's Friends", "Knockout Cup 0"]));
    const ned = await logInThroughApp(imitation.url, PEOPLE.ned.email, PEOPLE.ned.password);
    expect(ned.user?.username).toBe("ned");
    expect(ned.competitions).toEqual([{ name: "Knockout Cup 0", type: "knockout", eliminated: true, membershipStatus: "eliminated" }]);
    // generated players ($2a$, $2b$ and $2y$ hashes)
    for (const email of ["player1@example.com", "player2@example.com", "player3@example.com"]) {
      expect((await logInThroughApp(imitation.url, email, "generated-password")).user, email).not.toBeNull();
    }
    expect(await logInThroughApp(imitation.url, PEOPLE.alice.email, "wrong-password")).toMatchObject({ status: 401, user: null });
  });

  it("keeps private competitions private: a key the join accepts stays, the others get a new one the creator can read", async () => {
    const rows = await owner<{ name: string; visibility: string; registration_key: string; created_by: string }[]>`
      select name, visibility, registration_key, created_by::text from public.competitions where name = any(${PRIVATE_COMPETITIONS.map((c) => c.name)})
       order by created_at`;
    expect(rows.map((r) => r.visibility)).toEqual(["private", "private", "private"]);
    expect(rows[0].registration_key).toBe("Q7K2M9PX");
    expect(new Set(rows.map((r) => r.registration_key)).size).toBe(3);
    for (const r of rows) expect(r.registration_key).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(report.newRegistrationKeys).toBe(2);
    const officeKey = await asUser(
      owner,
      rows[1].created_by,
      (tx) =>
        tx<
          { key: string }[]
        >`select public.competition_registration_key(c.id) as key from public.competitions c where c.name = 'Office Pool'`,
    );
    expect(officeKey).toEqual([{ key: rows[1].registration_key }]);
  });
});

describe.skipIf(kind !== "postgres")("db:adopt when the original's knockout view fails when read (real PostgreSQL only)", () => {
  let imitation: Imitation;
  afterAll(() => imitation?.drop());

  it("says so, derives the elimination match days from the picks and results, and adopts", async () => {
    imitation = await createSupabaseImitation(inject("dbAdminUrl"), `footy_adopt_badview_${process.pid}`);
    await seedOriginal(imitation.superUrl, SMALL);
    const owner = connect(imitation.url, { max: 1 });
    try {
      await owner.unsafe(`
        create function public.broken_rank() returns integer language plpgsql as $$ begin raise exception 'no rank'; end $$;
        alter view public.knockout_leaderboard_view rename to knockout_leaderboard_base;
        create view public.knockout_leaderboard_view as
          select competition_id, user_id, user_username, status, knocked_out_on + public.broken_rank() as knocked_out_on,
                 current_selection
            from public.knockout_leaderboard_base`);
      const [{ n }] = await owner<{ n: number }[]>`select count(*)::int as n from public.user_selections where status = 'eliminated'`;
      const report = await adopt(owner, MIGRATIONS_DIR);
      expect(report.state).toBe("adopted");
      expect(report.knockoutView).toBe("unreadable");
      expect(report.eliminations).toEqual({ fromColumn: 0, fromView: 0, fromPicks: n });
      const [ned] = await owner<{ knocked_out_on: number }[]>`
        select us.knocked_out_on from public.user_selections us join account.accounts a on a.id = us.user_id
         where a.email = ${PEOPLE.ned.email}`;
      expect(ned.knocked_out_on).toBe(3);
    } finally {
      await owner.end({ timeout: 5 });
    }
  });
});
