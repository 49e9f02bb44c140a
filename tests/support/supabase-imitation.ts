/**
 * A faithful local imitation of the hosted Supabase project FootyCoach adopts (issue: "adopt the existing hosted
 * database in place"), on the throwaway real PostgreSQL of tests/support/pg.ts:
 *
 * - a database owned by `imitation_postgres`, a LOGIN role that is NOT a superuser (Supabase's `postgres`), member
 *   of anon/authenticated/service_role as on Supabase, with Supabase's default privileges in schema public;
 * - schemas auth (owned by another role, like supabase_auth_admin), extensions (pgcrypto), storage;
 *   auth.users with Supabase's real columns; Supabase's auth.uid();
 * - the ORIGINAL app's public tables (spec part 2, section 3) with foreign keys to auth.users, its views and
 *   remote procedures, its own row-level security, and its own supabase_migrations history (versions unknown here);
 * - rows in all of them: named players for each Supabase Auth case, plus a generator scaled by parameters.
 *
 * The adoption (scripts/db/adopt.ts) then runs as `imitation_postgres`, as an operator would run it as `postgres`.
 */
import postgres from "postgres";
import { connect, withDatabase } from "./pg";

export const IMITATION_OWNER = "imitation_postgres";

/** The original app's migration history: versions our supabase/migrations never had. */
export const ORIGINAL_VERSIONS = ["20240301120000", "20240315093000", "20240402180000", "20240610110000"];

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
} as const;
export type Person = keyof typeof PEOPLE;

export interface Scale {
  players: number;
  competitions: number;
  picks: number;
}
export const SMALL: Scale = { players: 60, competitions: 9, picks: 300 };

export interface Imitation {
  /** As imitation_postgres (not a superuser): what the operator's DATABASE_URL is. */
  url: string;
  /** As the cluster's superuser: the test's view from outside (e.g. to read auth as supabase_auth_admin would). */
  superUrl: string;
  drop(): Promise<void>;
}

async function ensureRole(sql: postgres.Sql, ddl: string) {
  // Roles are shared by every database of the server: parallel test files may race to create them.
  await sql.unsafe(`do $$ begin ${ddl}; exception when duplicate_object then null; end $$`);
}

/** Creates the imitation (empty of rows): roles, schemas, auth.users, the original app's schema and history. */
export async function createSupabaseImitation(adminUrl: string, name: string, { originalApp = true } = {}): Promise<Imitation> {
  const admin = connect(adminUrl, { max: 1 });
  try {
    for (const r of ["anon", "authenticated", "service_role"]) await ensureRole(admin, `create role ${r} nologin noinherit`);
    await ensureRole(admin, `create role supabase_auth_admin nologin noinherit`);
    await ensureRole(admin, `create role ${IMITATION_OWNER} login nosuperuser createrole inherit`);
    await admin.unsafe(`grant anon, authenticated, service_role to ${IMITATION_OWNER}`);
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name} owner ${IMITATION_OWNER}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const superUrl = withDatabase(adminUrl, name);
  const url = (() => {
    const u = new URL(superUrl);
    u.username = IMITATION_OWNER;
    return u.toString();
  })();

  const su = connect(superUrl, { max: 1 });
  try {
    await su.unsafe(SUPABASE_PLATFORM_SQL);
  } finally {
    await su.end({ timeout: 5 });
  }
  const owner = connect(url, { max: 1 });
  try {
    if (originalApp) await owner.unsafe(ORIGINAL_APP_SQL);
    for (const v of originalApp ? ORIGINAL_VERSIONS : []) {
      await owner`insert into supabase_migrations.schema_migrations (version, name, statements)
                  values (${v}, ${"original_" + v}, ${["-- original app"]})`;
    }
  } finally {
    await owner.end({ timeout: 5 });
  }
  return {
    url,
    superUrl,
    async drop() {
      const sql = connect(adminUrl, { max: 1 });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/** What the Supabase platform provides before any app migration (run as the superuser, as Supabase does). */
const SUPABASE_PLATFORM_SQL = `
  create schema extensions;
  create extension pgcrypto with schema extensions;
  grant usage on schema extensions to public;

  create schema auth authorization supabase_auth_admin;
  create schema storage authorization supabase_auth_admin;
  grant usage on schema auth, storage to anon, authenticated, service_role, ${IMITATION_OWNER};

  -- Supabase's auth.users (the columns the carry-over reads, and those around them).
  create table auth.users (
    instance_id uuid,
    id uuid primary key,
    aud varchar(255),
    role varchar(255),
    email varchar(255),
    encrypted_password varchar(255),
    email_confirmed_at timestamptz,
    invited_at timestamptz,
    confirmation_token varchar(255),
    recovery_token varchar(255),
    last_sign_in_at timestamptz,
    raw_app_meta_data jsonb,
    raw_user_meta_data jsonb,
    is_super_admin boolean,
    created_at timestamptz,
    updated_at timestamptz,
    phone text unique,
    phone_confirmed_at timestamptz,
    confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
    banned_until timestamptz,
    is_sso_user boolean not null default false,
    deleted_at timestamptz,
    is_anonymous boolean not null default false
  );
  create index users_email_idx on auth.users (email);
  alter table auth.users owner to supabase_auth_admin;
  grant select, references on auth.users to ${IMITATION_OWNER};

  create function auth.uid() returns uuid language sql stable as $$
    select coalesce(
      nullif(current_setting('request.jwt.claim.sub', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
    )::uuid
  $$;
  alter function auth.uid() owner to supabase_auth_admin;
  grant execute on function auth.uid() to public;

  -- Supabase's default privileges: everything the owner creates in public is open to the API roles
  -- (decision 001's revokes exist because of this).
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges for role ${IMITATION_OWNER} in schema public grant all on sequences to anon, authenticated, service_role;
`;

/** The original app's schema, as spec part 2 section 3 lists it (created by its owner, like its migrations). */
const ORIGINAL_APP_SQL = `
  create schema supabase_migrations;
  create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);

  create table public.profiles (
    id uuid primary key references auth.users (id) on delete cascade,
    email text,
    role text default 'user',
    username text unique,
    full_name text,
    display_name text,
    name text,
    team_name text,
    date_of_birth date,
    gender text,
    time_zone text,
    notifications_enabled boolean default true,
    fcm_token text,
    fcm_token_updated_at timestamptz,
    created_at timestamptz default now()
  );
  create table public.competitions (
    id uuid primary key default gen_random_uuid(),
    name text not null,
    type text not null,
    league text,
    season text,
    registration_status text default 'open',
    status text default 'active',
    start_date date,
    start_match_day integer,
    current_match_day integer,
    created_at timestamptz default now(),
    knockout_winner uuid references auth.users (id),
    first_kickoff_time timestamptz,
    total_match_days integer default 38,
    prize_title text,
    prize_description text,
    prize_terms_url text,
    prize_image_url text
  );
  create table public.fixtures (
    id bigserial primary key,
    league text,
    season text,
    match_day integer,
    home_team text,
    away_team text,
    kickoff_time timestamptz,
    status text default 'pending',
    home_score integer,
    away_score integer,
    result text
  );
  create table public.matchdays (
    league text, season text, match_day integer, first_kickoff_time timestamptz,
    primary key (league, season, match_day)
  );
  create table public.user_selections (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references auth.users (id) on delete cascade,
    competition_id uuid references public.competitions (id) on delete cascade,
    league text,
    season text,
    match_day integer,
    status text default 'active',
    knocked_out_on integer,
    created_at timestamptz default now(),
    unique (user_id, competition_id)
  );
  create table public.team_selections (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references auth.users (id) on delete cascade,
    competition_id uuid references public.competitions (id) on delete cascade,
    match_day integer,
    team text,
    created_at timestamptz default now(),
    unique (user_id, competition_id, match_day)
  );
  create table public.release_notes (
    id uuid primary key default gen_random_uuid(),
    version text, title text, content text, release_date date, is_published boolean default false,
    created_by uuid references auth.users (id)
  );
  create table public.tickets (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references auth.users (id) on delete cascade,
    ticket_type text,
    target_competition_id uuid references public.competitions (id),
    used boolean default false,
    created_at timestamptz default now()
  );
  create table public.scout_entries (
    id uuid primary key default gen_random_uuid(),
    competition_id uuid references public.competitions (id),
    user_id uuid references auth.users (id) on delete cascade,
    match_day integer, league text, season text, entry_index integer default 0,
    total_points integer default 0, exact_count integer default 0, locked boolean default false,
    created_at timestamptz default now()
  );
  create table public.scout_predictions (
    id uuid primary key default gen_random_uuid(),
    scout_entry_id uuid references public.scout_entries (id) on delete cascade,
    fixture_id bigint references public.fixtures (id),
    home_goals integer, away_goals integer, points_awarded integer default 0, exact boolean default false
  );

  alter table public.profiles enable row level security;
  create policy "own profile" on public.profiles for all using (auth.uid() = id);
  alter table public.team_selections enable row level security;
  create policy "own picks" on public.team_selections for all using (auth.uid() = user_id);
  alter table public.tickets enable row level security;
  create policy "own tickets" on public.tickets for select using (auth.uid() = user_id);

  create view public.knockout_leaderboard_view as
    select us.competition_id, us.user_id, p.username as user_username,
           case when us.status = 'active' then 'Still In' else us.status end as status, us.knocked_out_on,
           null::text as current_selection
      from public.user_selections us join public.profiles p on p.id = us.user_id;
  create view public.user_competition_stats_view as
    select us.competition_id, us.user_id, p.username, 1 as rank, 0 as wins, 0 as draws, 0 as losses,
           0 as goals_for, 0 as goals_against, 0 as points
      from public.user_selections us join public.profiles p on p.id = us.user_id;

  -- The original remote procedures: same names as ours, so the adoption must move them out of the way.
  create function public.handle_referral_signup(p_referred_user_id uuid, p_referred_email text, p_referral_code text)
  returns void language plpgsql as $$ begin return; end $$;
  create function public.redeem_ticket_for_entry(p_user_id uuid, p_competition_id uuid, p_ticket_type text default null)
  returns uuid language plpgsql as $$ begin return null; end $$;
  create function public.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer)
  returns setof public.scout_entries language sql stable as $$
    select * from public.scout_entries where league = p_league and season = p_season and match_day = p_match_day
  $$;
  create type public.ticket_kind as enum ('footycoach', 'referral');
`;

/**
 * Fills the imitation with the named players (PEOPLE) and a generated population: `players` players,
 * `competitions` competitions (knockout, season, scout in turn) and `picks` picks spread over the memberships of the
 * knockout and season competitions (10 completed match days each), Scout entries with predictions, tickets and
 * release notes. Set-based SQL, so 10,000 players take seconds. Run as the superuser (auth.users is not the
 * owner's to write, as on Supabase).
 */
export async function seedOriginal(superUrl: string, scale: Scale = SMALL): Promise<void> {
  const sql = connect(superUrl, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      // One bcrypt hash (cost 4) shared by the generated players: bcrypt per player would take minutes.
      await tx.unsafe(`create temporary table seed_hash on commit drop as
                         select extensions.crypt('generated-password', extensions.gen_salt('bf', 4)) as h`);
      for (const [key, p] of Object.entries(PEOPLE)) {
        const person = p as {
          email: string;
          password: string | null;
          prefix?: string;
          unconfirmed?: boolean;
          bannedFor?: string;
          deleted?: boolean;
          argon2?: boolean;
        };
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

        insert into public.profiles (id, email, role, username, full_name, display_name, date_of_birth, gender, time_zone,
                                     notifications_enabled, created_at)
        select u.id, u.email, case when u.email = 'alice@example.com' then 'admin' else 'user' end,
               u.raw_user_meta_data ->> 'username', initcap(u.raw_user_meta_data ->> 'username') || ' Smith',
               case when u.email like 'player1%' then 'Star ' || (u.raw_user_meta_data ->> 'username') end,
               date '1985-01-01' + (abs(hashtext(u.email)) % 5000), (array['male', 'female', 'Male', null, 'other'])[1 + abs(hashtext(u.email)) % 5],
               (array['Europe/London', 'Europe/Madrid', null, 'America/New_York'])[1 + abs(hashtext(u.email)) % 4],
               abs(hashtext(u.email)) % 2 = 0, u.created_at
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
                                         current_match_day, created_at, total_match_days, prize_title, prize_terms_url)
        select (array['Knockout', 'Season', 'Scout'])[1 + (c % 3)] || ' Cup ' || c, (array['knockout', 'season', 'scout'])[1 + (c % 3)],
               'Premier League', '2025/26', 'closed', 'active', (now() - interval '80 days')::date, 1, 11, now() - interval '90 days', 38,
               case when c % 3 = 2 then 'Match tickets' end, case when c % 3 = 2 then 'https://example.com/terms' end
          from generate_series(0, ${scale.competitions} - 1) c;
      `);
      // Memberships of the knockout and season competitions, enough for the picks at 10 match days each.
      await tx.unsafe(`
        create temporary table seed_players on commit drop as
          select p.id, row_number() over (order by p.created_at, p.id) - 1 as n from public.profiles p;
        create temporary table seed_comps on commit drop as
          select c.id, c.type, row_number() over (order by c.name) - 1 as n from public.competitions c;

        insert into public.user_selections (user_id, competition_id, league, season, match_day, status, knocked_out_on, created_at)
        select p.id, c.id, 'Premier League', '2025/26', 1,
               case when c.type = 'knockout' and p.n % 7 = 3 then 'eliminated' else 'active' end,
               case when c.type = 'knockout' and p.n % 7 = 3 then 4 end, now() - interval '85 days'
          from seed_comps c
          join seed_players p
            on c.type <> 'scout'
           and ((p.n - c.n * 7 + (select count(*) from seed_players) * 100) % (select count(*) from seed_players))
               < greatest(1, ceil(${scale.picks} / 10.0 / greatest(1, (select count(*) from seed_comps where type <> 'scout'))))
        on conflict do nothing;

        insert into public.team_selections (user_id, competition_id, match_day, team, created_at)
        select us.user_id, us.competition_id, md,
               case when (p.n + md) % 2 = 0 then f.home_team else f.away_team end, now() - make_interval(days => 80 - md * 7)
          from public.user_selections us
          join seed_players p on p.id = us.user_id
          cross join generate_series(1, 10) md
          join public.fixtures f on f.match_day = md and f.home_team = 'Team ' || chr(65 + ((p.n + md) % 10)::int)
         order by us.created_at, us.user_id, us.competition_id, md
         limit ${scale.picks};

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
      `);
      // The named players' own game: alice (and bob, cara, fay) play knockout cup 0 and have a Scout entry.
      await tx.unsafe(`
        insert into public.user_selections (user_id, competition_id, league, season, match_day, status)
        select u.id, c.id, 'Premier League', '2025/26', 1, 'active'
          from auth.users u, seed_comps c
         where u.email in ('alice@example.com', 'bob@example.com', 'cara@example.com', 'fay@example.com') and c.n = (select min(n) from seed_comps where type = 'knockout')
        on conflict do nothing;
        insert into public.team_selections (user_id, competition_id, match_day, team)
        select u.id, c.id, 1, 'Team A' from auth.users u, seed_comps c
         where u.email in ('alice@example.com', 'bob@example.com', 'cara@example.com', 'fay@example.com') and c.n = (select min(n) from seed_comps where type = 'knockout')
        on conflict do nothing;
        insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, locked)
        select c.id, u.id, 10, 'Premier League', '2025/26', 3, true from auth.users u, seed_comps c
         where u.email = 'alice@example.com' and c.n = (select min(n) from seed_comps where type = 'scout');
        insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
        select e.id, f.id, 1, 1 from public.scout_entries e join auth.users u on u.id = e.user_id
          join public.fixtures f on f.match_day = 10 where u.email = 'alice@example.com' and e.entry_index = 3;
        insert into public.tickets (user_id, ticket_type, target_competition_id, used)
        select u.id, 'footycoach', c.id, false from auth.users u, seed_comps c where u.email = 'alice@example.com' and c.n = (select min(n) from seed_comps where type = 'scout');
        insert into public.tickets (user_id, ticket_type, used)
        select u.id, 'referral', false from auth.users u where u.email = 'alice@example.com';
      `);
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
