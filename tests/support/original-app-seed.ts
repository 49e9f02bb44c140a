/**
 * Rows for the imitation of the hosted project (./supabase-imitation.ts): named players for each Supabase Auth case
 * of the carry-over (PEOPLE), and a generated population scaled by parameters. It writes the spec's columns only;
 * where the imitation has more (the "extras" variant) it fills them too, found in information_schema as the
 * adoption finds them.
 *
 * Knockout eliminations are consistent with the picks and results: a generated player is out on the match day of
 * their first losing pick after winning ones, and has no pick after it; the named player ned is out on match day 3
 * for not picking after two wins.
 */
import type postgres from "postgres";
import { connect } from "./pg";

/** Named players covering each Supabase Auth case of the carry-over (deploy.md, decision 019). */
export const PEOPLE = {
  alice: { email: "alice@example.com", password: "alice-password-1", prefix: "$2a$" },
  bob: { email: "bob@example.com", password: "bob-password-1", prefix: "$2b$" },
  cara: { email: "cara@example.com", password: "cara-password-1", prefix: "$2y$" },
  dan: { email: "dan@example.com", password: "dan-password-1", prefix: "$2a$", unconfirmed: true },
  eve: { email: "eve@example.com", password: "eve-password-1", prefix: "$2a$", bannedFor: "30 days" },
  fay: { email: "fay@example.com", password: "fay-password-1", prefix: "$2a$", bannedFor: "-1 day" },
  gus: { email: "gus@example.com", password: "gus-password-1", prefix: "$2a$", deleted: true },
  hal: { email: "hal@example.com", password: "hal-password-1", argon2: true },
  ivy: { email: "ivy@example.com", password: null, prefix: "$2a$" },
  // The same address twice in different case: Supabase keeps both rows; one account can have it.
  kim: { email: "kim@example.com", password: "kim-password-1", prefix: "$2a$" },
  kim2: { email: "Kim@Example.com", password: "kim-password-2", prefix: "$2a$" },
  // Out of knockout cup 0 for not picking on match day 3 after two wins.
  ned: { email: "ned@example.com", password: "ned-password-1", prefix: "$2b$" },
} as const;
export type Person = keyof typeof PEOPLE;

export interface Scale {
  players: number;
  competitions: number;
  picks: number;
}
export const SMALL: Scale = { players: 60, competitions: 9, picks: 300 };

/** The private competitions of the named players: a key in the current format (after trimming and upper case), one
 * that is not, and a copy of the first. */
export const PRIVATE_COMPETITIONS = [
  { name: "Alice's Friends", type: "knockout", creator: "alice@example.com", key: " q7k2m9px " },
  { name: "Office Pool", type: "season", creator: "bob@example.com", key: "office" },
  { name: "Copycat Cup", type: "knockout", creator: "cara@example.com", key: "Q7K2M9PX" },
] as const;

interface PersonRow {
  email: string;
  password: string | null;
  prefix?: string;
  unconfirmed?: boolean;
  bannedFor?: string;
  deleted?: boolean;
  argon2?: boolean;
}

/** The pick won: its team scored more than the other in the fixture it names. */
const WON = `case when f.home_team = t.team then f.home_score > f.away_score else f.away_score > f.home_score end`;

/**
 * Fills the imitation: PEOPLE, `players` players, `competitions` competitions (knockout, season, scout in turn) and
 * `picks` picks spread over the memberships of the knockout and season competitions (10 completed match days
 * each), Scout entries with predictions, tickets and release notes. Set-based SQL, so 10,000 players take
 * seconds. Run as the superuser (auth.users is not the owner's to write, as on Supabase).
 */
export async function seedOriginal(superUrl: string, scale: Scale = SMALL): Promise<void> {
  const sql = connect(superUrl, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      // One bcrypt hash (cost 4) shared by the generated players: bcrypt per player would take minutes.
      await tx.unsafe(`create temporary table seed_hash on commit drop as
                         select extensions.crypt('generated-password', extensions.gen_salt('bf', 4)) as h`);
      for (const [key, p] of Object.entries(PEOPLE)) {
        const person = p as PersonRow;
        await tx`
          insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, banned_until, deleted_at,
                                  raw_user_meta_data, created_at, updated_at)
          select gen_random_uuid(), 'authenticated', 'authenticated', ${person.email},
                 case when ${person.argon2 ?? false} then '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo'
                      when ${person.password}::text is null then ''
                      else ${person.prefix ?? "$2a$"} || substr(extensions.crypt(${person.password ?? ""}, extensions.gen_salt('bf', 4)), 5) end,
                 case when ${person.unconfirmed ?? false} then null else now() - interval '200 days' end,
                 case when ${person.bannedFor ?? null}::text is null then null else now() + ${person.bannedFor ?? "0"}::interval end,
                 case when ${person.deleted ?? false} then now() - interval '10 days' end,
                 ${tx.json({ username: key })}, now() - interval '300 days', now() - interval '1 day'`;
      }
      await tx.unsafe(`
        insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at)
        select gen_random_uuid(), 'authenticated', 'authenticated', 'player' || i || '@example.com',
               (array['$2a$', '$2b$', '$2y$'])[1 + i % 3] || substr((select h from seed_hash), 5),
               now() - interval '100 days', jsonb_build_object('username', 'player' || i),
               now() - make_interval(days => 100 + i % 200), now()
          from generate_series(1, ${scale.players}) i;

        insert into public.profiles (id, email, role, username, full_name, display_name, name, team_name, date_of_birth,
                                     gender, time_zone, analytics_consent, analytics_consent_at, notifications_enabled)
        select u.id, u.email, case when u.email = 'alice@example.com' then 'admin' else 'user' end,
               u.raw_user_meta_data ->> 'username', initcap(u.raw_user_meta_data ->> 'username') || ' Smith',
               case when u.email like 'player1%' then 'Star ' || (u.raw_user_meta_data ->> 'username') end,
               initcap(u.raw_user_meta_data ->> 'username'), 'FC ' || initcap(u.raw_user_meta_data ->> 'username'),
               date '1985-01-01' + (abs(hashtext(u.email)) % 5000), (array['male', 'female', 'Male', null, 'other'])[1 + abs(hashtext(u.email)) % 5],
               (array['Europe/London', 'Europe/Madrid', null, 'America/New_York'])[1 + abs(hashtext(u.email)) % 4],
               case when abs(hashtext(u.email)) % 3 = 0 then true when abs(hashtext(u.email)) % 3 = 1 then false end,
               case when abs(hashtext(u.email)) % 3 < 2 then now() - interval '30 days' end,
               abs(hashtext(u.email)) % 2 = 0
          from auth.users u
         where u.email <> 'Kim@Example.com';

        -- 20 teams, 38 match days of 10 games; match days 1-10 played, the rest ahead.
        insert into public.fixtures (league, season, match_day, home_team, away_team, kickoff_time, status, home_score, away_score, result)
        select 'Premier League', '2025/26', md, 'Team ' || chr(65 + g), 'Team ' || chr(75 + g),
               now() + make_interval(days => (md - 11) * 7, hours => g),
               case when md <= 10 then 'complete' else 'pending' end,
               case when md <= 10 then (md + g) % 4 end, case when md <= 10 then (md * g) % 3 end,
               case when md <= 10 then case when (md + g) % 4 > (md * g) % 3 then 'home_win'
                                            when (md + g) % 4 < (md * g) % 3 then 'away_win' else 'draw' end end
          from generate_series(1, 38) md, generate_series(0, 9) g;
        insert into public.matchdays select league, season, match_day, min(kickoff_time) from public.fixtures group by 1, 2, 3;

        insert into public.competitions (name, type, league, season, registration_status, status, start_date, start_match_day,
                                         current_match_day, created_at, total_match_days, prize, prize_title, prize_terms_url)
        select (array['Knockout', 'Season', 'Scout'])[1 + (c % 3)] || ' Cup ' || c, (array['knockout', 'season', 'scout'])[1 + (c % 3)],
               'Premier League', '2025/26', 'closed', 'active', (now() - interval '80 days')::date, 1, 11, now() - interval '90 days', 38,
               case when c % 3 = 0 then 'A signed ball' end,
               case when c % 3 = 2 then 'Match tickets' end, case when c % 3 = 2 then 'https://example.com/terms' end
          from generate_series(0, ${scale.competitions} - 1) c;
      `);
      await seedGame(tx, scale);
      await fillExtras(tx);
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

type Tx = postgres.TransactionSql;

/** Memberships, picks (some in the older team-only form), eliminations, Scout, tickets, release notes. */
async function seedGame(tx: Tx, scale: Scale) {
  // Memberships of the knockout and season competitions, enough for the picks at 10 match days each.
  await tx.unsafe(`
    create temporary table seed_players on commit drop as
      select p.id, row_number() over (order by p.id) - 1 as n from public.profiles p where p.username like 'player%';
    create temporary table seed_comps on commit drop as
      select c.id, c.type, row_number() over (order by c.name) - 1 as n from public.competitions c;
    create temporary table seed_knockouts (user_id uuid, competition_id uuid, match_day integer) on commit drop;

    insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
    select p.id, c.id, 'Premier League', '2025/26', 1, 'active'
      from seed_comps c
      join seed_players p
        on c.type <> 'scout'
       and ((p.n - c.n * 7 + (select count(*) from seed_players) * 100) % (select count(*) from seed_players))
           < greatest(1, ceil(${scale.picks} / 10.0 / greatest(1, (select count(*) from seed_comps where type <> 'scout'))))
    on conflict do nothing;

    -- Picks of match days 1 and 2 are in the older form (team only); later ones name the fixture as well.
    insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction, team, created_at)
    select us.user_id, us.competition_id, md, case when md > 2 then f.id end,
           case when md > 2 then x.team end,
           case when md > 2 then case when x.team = f.home_team then 'home_win' else 'away_win' end end,
           x.team, now() - make_interval(days => 80 - md * 7)
      from public.user_selections us
      join seed_players p on p.id = us.user_id
      cross join generate_series(1, 10) md
      join public.fixtures f on f.match_day = md and f.home_team = 'Team ' || chr(65 + ((p.n + md) % 10)::int)
      cross join lateral (select case when (p.n + md) % 2 = 0 then f.home_team else f.away_team end as team) x
     order by us.user_id, us.competition_id, md
     limit ${scale.picks};

    -- Every other knockout player whose picks won until one did not is out on that match day; no pick after it.
    insert into seed_knockouts
    select us.user_id, us.competition_id, o.first_loss
      from public.user_selections us
      join seed_players p on p.id = us.user_id and p.n % 2 = 1
      join seed_comps c on c.id = us.competition_id and c.type = 'knockout'
      cross join lateral (
        select min(t.match_day) filter (where not ${WON}) as first_loss,
               array_agg(t.match_day order by t.match_day) as days
          from public.team_selections t join public.fixtures f on f.match_day = t.match_day and t.team in (f.home_team, f.away_team)
         where t.user_id = us.user_id and t.competition_id = us.competition_id) o
     where o.first_loss is not null
       and (select count(*) from unnest(o.days) d where d < o.first_loss) = o.first_loss - 1;
    delete from public.team_selections t using seed_knockouts k
     where t.user_id = k.user_id and t.competition_id = k.competition_id and t.match_day > k.match_day;
  `);
  // The named players' own game: alice, bob, cara, fay, ned and gus (soft-deleted since) play knockout cup 0; ned
  // is out for not picking.
  await tx.unsafe(`
    insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
    select u.id, c.id, 'Premier League', '2025/26', 1, 'active'
      from auth.users u, seed_comps c
     where u.email in ('alice@example.com', 'bob@example.com', 'cara@example.com', 'fay@example.com', 'ned@example.com',
                       'gus@example.com')
       and c.n = (select min(n) from seed_comps where type = 'knockout')
    on conflict do nothing;
    insert into public.team_selections (user_id, competition_id, match_day, team)
    select u.id, c.id, 1, 'Team A' from auth.users u, seed_comps c
     where u.email in ('alice@example.com', 'bob@example.com', 'cara@example.com', 'fay@example.com', 'ned@example.com',
                       'gus@example.com')
       and c.n = (select min(n) from seed_comps where type = 'knockout')
    on conflict do nothing;
    insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction, team)
    select u.id, c.id, 2, f.id, f.home_team, 'home_win', f.home_team from auth.users u, seed_comps c, public.fixtures f
     where u.email = 'ned@example.com' and c.n = (select min(n) from seed_comps where type = 'knockout')
       and f.match_day = 2 and f.home_team = 'Team B';
    insert into seed_knockouts
    select u.id, c.id, 3 from auth.users u, seed_comps c
     where u.email = 'ned@example.com' and c.n = (select min(n) from seed_comps where type = 'knockout');
    update public.user_selections us set status = 'eliminated'
      from seed_knockouts k where k.user_id = us.user_id and k.competition_id = us.competition_id;
  `);
  for (const [i, c] of PRIVATE_COMPETITIONS.entries()) {
    await tx`
      with made as (
        insert into public.competitions (name, type, league, season, registration_status, status, start_date, start_match_day,
                                         current_match_day, created_at, total_match_days, visibility, registration_key, created_by)
        select ${c.name}, ${c.type}, 'Premier League', '2025/26', 'closed', 'active', (now() - interval '80 days')::date, 1, 11,
               now() - interval '90 days' + make_interval(mins => ${i}), 38, 'private', ${c.key}, u.id
          from auth.users u where u.email = ${c.creator}
        returning id, created_by)
      insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
      select created_by, id, 'Premier League', '2025/26', 1, 'active' from made`;
  }
  await tx.unsafe(`
    -- Scout: in each scout competition about 50 players have an entry for match days 9 and 10, 10 predictions each.
    insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points, exact_count, locked, created_at)
    select c.id, p.id, md, 'Premier League', '2025/26', 0, 0, 0, true, now() - interval '20 days'
      from seed_comps c join seed_players p
        on c.type = 'scout' and (p.n + c.n) % greatest(1, (select count(*) from seed_players) / 50) = 0
      cross join generate_series(9, 10) md;
    insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals, points_awarded, exact)
    select e.id, f.id, (f.id % 3)::int, (f.id % 2)::int, 0, false
      from public.scout_entries e join public.fixtures f on f.match_day = e.match_day;
    insert into public.tickets (user_id, ticket_type, target_competition_id, used, created_at)
    select e.user_id, 'footycoach', e.competition_id, true, e.created_at from public.scout_entries e;
    insert into public.tickets (user_id, ticket_type, target_competition_id, used, created_at)
    select p.id, 'referral', null, false, now() - interval '5 days' from seed_players p where p.n % 10 = 1;

    insert into public.release_notes (version, title, content, release_date, is_published, created_by)
    select '1.' || v || '.0', 'Release ' || v, '## What is new' || chr(10) || '- item ' || v, current_date - v * 30, v < 4,
           (select id from auth.users where email = 'alice@example.com')
      from generate_series(1, 5) v;

    -- alice's Scout entry and tickets
    insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, locked)
    select c.id, u.id, 10, 'Premier League', '2025/26', 3, true from auth.users u, seed_comps c
     where u.email = 'alice@example.com' and c.n = (select min(n) from seed_comps where type = 'scout');
    insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
    select e.id, f.id, 1, 1 from public.scout_entries e join auth.users u on u.id = e.user_id
      join public.fixtures f on f.match_day = 10 where u.email = 'alice@example.com' and e.entry_index = 3;
    insert into public.tickets (user_id, ticket_type, target_competition_id, used)
    select u.id, 'footycoach', c.id, false from auth.users u, seed_comps c where u.email = 'alice@example.com' and c.n = (select min(n) from seed_comps where type = 'scout');
    insert into public.tickets (user_id, ticket_type, used)
    select u.id, 'referral', false from auth.users u where u.email in ('alice@example.com', 'gus@example.com');
  `);
}

/** The extra columns, when the imitation has them: the original app's own record of what the spec leaves out. */
async function fillExtras(tx: Tx) {
  const rows = await tx<{ name: string }[]>`
    select table_name || '.' || column_name as name from information_schema.columns where table_schema = 'public'`;
  const has = new Set(rows.map((r) => r.name));
  if (has.has("user_selections.knocked_out_on"))
    await tx.unsafe(`update public.user_selections us set knocked_out_on = k.match_day
                       from seed_knockouts k where k.user_id = us.user_id and k.competition_id = us.competition_id`);
  if (has.has("user_selections.created_at")) await tx.unsafe(`update public.user_selections set created_at = now() - interval '85 days'`);
  if (has.has("profiles.created_at"))
    await tx.unsafe(`update public.profiles p set created_at = u.created_at + interval '1 minute' from auth.users u where u.id = p.id`);
}
