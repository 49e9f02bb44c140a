/**
 * Copies the original app's rows (kept in schema original_app) into the current tables, mapping columns
 * (decisions 019, 026). Ids are kept, so links between rows hold. The current tables' triggers run as for any
 * write (player counts, standings from the results, matchdays, Scout league/season), except the FootyCoach ticket
 * grant at competition insert: original tickets are copied first, then the missing ones are granted by the same
 * rule. A row with no place in the current tables (its player was soft-deleted, its pick names no fixture) stays
 * in original_app only and is counted. The steps read the spec's columns (./original-shape.ts) and any other only
 * when information_schema shows it; memberships and picks are ./adopt-memberships.ts.
 */
import type postgres from "postgres";
import { copyMembershipsAndPicks, type EliminationSources } from "./adopt-memberships";
import { ORIGINAL_TABLE_NAMES } from "./original-guard";
import { Columns } from "./original-shape";

const O = "original_app";

export const ORIGINAL_TABLES = ORIGINAL_TABLE_NAMES;
export const CURRENT_TABLES = [...ORIGINAL_TABLES, "player_names"] as const;

/** Each step: the insert (given the original's columns), and the original table whose rows it carries. */
type Step = { table: string; sql: (original: Columns) => string };

/** Before the memberships and picks (./adopt-memberships.ts), which need them. */
const FIRST_STEPS: Step[] = [
  {
    table: "profiles",
    // Usernames follow the current rule (3-30 of A-Z a-z 0-9 _ . -, unique ignoring case): cleaned, and a clash
    // gets a piece of the id. A profile without a date of birth or under 18 is left for profile setup.
    sql: (original) => `
      insert into public.profiles (id, email, username, date_of_birth, gender, gender_self_describe, time_zone, role,
                                   notifications_enabled, fcm_token, fcm_token_updated_at, created_at, display_name,
                                   analytics_consent, analytics_consent_at)
      select p.id, a.email,
             case when count(*) over (partition by lower(n.base)) > 1
                       and row_number() over (partition by lower(n.base) order by p.since, p.id) > 1
                  then left(n.base, 23) || '_' || left(replace(p.id::text, '-', ''), 6) else n.base end,
             p.date_of_birth,
             case when lower(btrim(p.gender)) in ('male', 'female', 'nonbinary', 'prefer-not-to-say') then lower(btrim(p.gender))
                  when nullif(btrim(p.gender), '') is null then 'prefer-not-to-say'
                  else 'self-describe' end,
             case when lower(btrim(p.gender)) in ('male', 'female', 'nonbinary', 'prefer-not-to-say')
                       or nullif(btrim(p.gender), '') is null then null
                  else left(btrim(p.gender), 50) end,
             coalesce(nullif(btrim(p.time_zone), ''), 'UTC'),
             case when p.role = 'admin' then 'admin' else 'player' end,
             coalesce(p.notifications_enabled, false), p.fcm_token, p.fcm_token_updated_at,
             p.since,
             nullif(left(btrim(p.display_name), 40), ''),
             p.analytics_consent, case when p.analytics_consent is not null then p.analytics_consent_at end
        -- since: the original's created_at when it has one, else the account's (auth.users.created_at)
        from (select o.*, coalesce(${original.or("o", "profiles", "created_at", "null::timestamptz")}, a.created_at, now()) as since
                from ${O}.profiles o join account.accounts a on a.id = o.id) p
        join account.accounts a on a.id = p.id
        cross join lateral (
          select case when char_length(c.name) < 3 then rpad(c.name, 3, '_') else c.name end as base
            from (select left(regexp_replace(coalesce(nullif(p.username, ''), split_part(a.email, '@', 1)), '[^A-Za-z0-9_.-]', '', 'g'), 30) as name) c
        ) n
       where p.date_of_birth is not null and p.date_of_birth >= date '1900-01-01'
         and p.date_of_birth <= current_date - interval '18 years'
      on conflict do nothing`,
  },
  {
    table: "fixtures",
    // The result is the one the scores give (the current checks tie them); complete means both scores.
    sql: () => `
      insert into public.fixtures (id, league, season, match_day, kickoff_time, home_team, away_team, home_score,
                                   away_score, status, result)
      select f.id, f.league, f.season, f.match_day, f.kickoff_time, f.home_team, f.away_team,
             case when f.away_score is not null then f.home_score end, case when f.home_score is not null then f.away_score end,
             case when f.home_score is not null and f.away_score is not null then 'complete'
                  when f.status = 'postponed' then 'postponed' else 'pending' end,
             case when f.home_score is null or f.away_score is null then null
                  when f.home_score > f.away_score then 'home_win' when f.home_score < f.away_score then 'away_win' else 'draw' end
        from ${O}.fixtures f
       where f.league is not null and f.season is not null and f.match_day >= 1 and f.kickoff_time is not null
         and f.home_team is not null and f.away_team is not null and f.home_team <> f.away_team
         and (f.home_score is null or f.home_score between 0 and 30) and (f.away_score is null or f.away_score between 0 and 30)
      on conflict do nothing;
      select setval(pg_get_serial_sequence('public.fixtures', 'id'), greatest((select max(id) from public.fixtures), 1))`,
  },
  {
    table: "competitions",
    sql: () => `
      alter table public.competitions disable trigger competitions_grant_footycoach_tickets_insert;
      insert into public.competitions (id, name, type, league, season, start_date, total_match_days, start_match_day,
                                       current_match_day, status, registration_status, visibility, registration_key, prize,
                                       prize_title, prize_description, prize_terms_url, prize_image_url, knockout_winner,
                                       created_by, created_at)
      select c.id, left(btrim(c.name), 100), c.type, c.league, c.season, coalesce(c.start_date, c.created_at::date, current_date),
             t.total, t.start, least(greatest(coalesce(c.current_match_day, t.start), t.start), t.total),
             case when c.status = 'active' then 'active' else 'inactive' end,
             case when c.registration_status in ('open', 'closed', 'completed') then c.registration_status else 'closed' end,
             case when c.visibility = 'private' and c.type <> 'scout' then 'private' else 'public' end,
             -- a private competition keeps its key when it is one the join accepts (8 of the unambiguous letters and
             -- digits, compared in upper case) and the first with it; else the insert trigger makes a new one
             case when c.visibility = 'private' and c.type <> 'scout' and c.norm_key ~ '^[A-HJ-NP-Z2-9]{8}$' and c.key_nth = 1
                  then c.norm_key end,
             coalesce(left(nullif(btrim(c.prize), ''), 500), public.default_prize()),
             left(c.prize_title, 200), left(c.prize_description, 4000),
             case when c.prize_terms_url ~ '^(https?://|/)' then left(c.prize_terms_url, 2000) end,
             case when c.prize_image_url ~ '^(https?://|/)' then left(c.prize_image_url, 2000) end,
             case when c.type = 'knockout' and exists (select 1 from public.profiles p where p.id = c.knockout_winner) then c.knockout_winner end,
             case when exists (select 1 from public.profiles p where p.id = c.created_by) then c.created_by end,
             coalesce(c.created_at, now())
        from (select o.*, upper(btrim(o.registration_key)) as norm_key,
                     row_number() over (partition by upper(btrim(o.registration_key)) order by o.created_at, o.id) as key_nth
                from ${O}.competitions o) c
        cross join lateral (select least(greatest(coalesce(c.total_match_days, 38), 1), 60) as total) t0
        cross join lateral (select t0.total, least(greatest(coalesce(c.start_match_day, 1), 1), t0.total) as start) t
       where c.type in ('season', 'knockout', 'scout') and c.league is not null and c.season is not null
         and char_length(btrim(c.name)) >= 1
      on conflict do nothing;
      alter table public.competitions enable trigger competitions_grant_footycoach_tickets_insert`,
  },
];

const LATER_STEPS: Step[] = [
  {
    table: "tickets",
    // The original has no used_at: its created_at is the best time it has.
    sql: () => `
      insert into public.tickets (id, user_id, ticket_type, target_competition_id, used, used_at, created_at)
      select t.id, t.user_id, t.ticket_type, case when t.ticket_type = 'footycoach' then t.target_competition_id end,
             coalesce(t.used, false), case when t.used then coalesce(t.created_at, now()) end, coalesce(t.created_at, now())
        from ${O}.tickets t
        join public.profiles p on p.id = t.user_id
       where t.ticket_type = 'referral'
          or (t.ticket_type = 'footycoach' and exists (select 1 from public.competitions c where c.id = t.target_competition_id))
      on conflict do nothing`,
  },
  {
    table: "scout_entries",
    sql: () => `
      insert into public.scout_entries (id, competition_id, user_id, match_day, league, season, entry_index, total_points,
                                        exact_count, locked, created_at)
      select e.id, e.competition_id, e.user_id, e.match_day, c.league, c.season, e.entry_index,
             greatest(coalesce(e.total_points, 0), 0), greatest(coalesce(e.exact_count, 0), 0), coalesce(e.locked, false),
             coalesce(e.created_at, now())
        from ${O}.scout_entries e
        join public.profiles p on p.id = e.user_id
        join public.competitions c on c.id = e.competition_id and c.type = 'scout'
       where e.match_day >= 1 and e.entry_index between 0 and 9
      on conflict do nothing`,
  },
  {
    table: "scout_predictions",
    // Points are the current rule's (scored at commit from the results); the stored ones are recomputed below.
    sql: () => `
      insert into public.scout_predictions (id, scout_entry_id, fixture_id, home_goals, away_goals, points_awarded, exact)
      select sp.id, sp.scout_entry_id, sp.fixture_id, sp.home_goals, sp.away_goals,
             private.scout_points(sp.home_goals, sp.away_goals, f.status, f.home_score, f.away_score),
             private.scout_points(sp.home_goals, sp.away_goals, f.status, f.home_score, f.away_score) = 5
        from ${O}.scout_predictions sp
        join public.scout_entries e on e.id = sp.scout_entry_id
        join public.fixtures f on f.id = sp.fixture_id
       where sp.home_goals between 0 and 9 and sp.away_goals between 0 and 9
      on conflict do nothing;
      update public.scout_entries e
         set total_points = s.total, exact_count = s.exact
        from (select scout_entry_id, sum(points_awarded)::int as total, count(*) filter (where exact)::int as exact
                from public.scout_predictions group by 1) s
       where s.scout_entry_id = e.id and (e.total_points, e.exact_count) is distinct from (s.total, s.exact)`,
  },
  {
    table: "release_notes",
    sql: (original) => `
      insert into public.release_notes (id, version, title, content, release_date, is_published, created_by, created_at)
      select r.id, left(btrim(r.version), 50), left(btrim(r.title), 200), r.content, coalesce(r.release_date, current_date),
             coalesce(r.is_published, false), case when exists (select 1 from public.profiles p where p.id = r.created_by) then r.created_by end,
             coalesce(${original.or("r", "release_notes", "created_at", "null::timestamptz")}, r.release_date::timestamptz, now())
        from ${O}.release_notes r
       where char_length(btrim(r.version)) >= 1 and char_length(btrim(r.title)) >= 1 and char_length(btrim(r.content)) >= 1
      on conflict do nothing`,
  },
];

/** The original rows whose id is not in the current table: kept only in original_app. */
const MISSING: Record<string, string> = {
  matchdays: `select count(*) from ${O}.matchdays o where not exists (select 1 from public.matchdays m
                where (m.league, m.season, m.match_day) = (o.league, o.season, o.match_day))`,
};

export interface RowsReport {
  /** Original rows that have no place in the current tables (kept in original_app), per table. */
  notCarried: Record<string, number>;
  eliminations: EliminationSources;
  /** Private competitions whose key the join would not accept (or a copy of another's): a new key was made. */
  newRegistrationKeys: number;
}

export async function copyOriginalRows(tx: postgres.TransactionSql): Promise<RowsReport> {
  const original = await Columns.of(tx, O);
  const run = async (steps: Step[]) => {
    for (const step of steps) if (original.hasTable(step.table)) await tx.unsafe(step.sql(original));
  };
  await run(FIRST_STEPS);
  const eliminations = await copyMembershipsAndPicks(tx, original);
  await run(LATER_STEPS);
  // Every player holds one FootyCoach ticket per active Scout competition (the rule the insert trigger applies).
  await tx.unsafe(`
    insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
    select p.id, 'footycoach', c.id, c.current_match_day
      from public.profiles p cross join public.competitions c
     where c.type = 'scout' and c.status = 'active'
    on conflict do nothing`);

  const notCarried: Record<string, number> = {};
  for (const table of ORIGINAL_TABLES) {
    if (!original.hasTable(table)) continue;
    const query =
      MISSING[table] ?? `select count(*) from ${O}.${table} o where not exists (select 1 from public.${table} n where n.id = o.id)`;
    const [{ count }] = await tx.unsafe<{ count: string }[]>(query);
    if (Number(count) > 0) notCarried[table] = Number(count);
  }
  const [{ n }] = original.hasTable("competitions")
    ? await tx.unsafe<{ n: number }[]>(`
        select count(*)::int as n from public.competitions c join ${O}.competitions o on o.id = c.id
         where c.visibility = 'private' and c.registration_key is distinct from upper(btrim(o.registration_key))`)
    : [{ n: 0 }];
  return { notCarried, eliminations, newRegistrationKeys: n };
}
