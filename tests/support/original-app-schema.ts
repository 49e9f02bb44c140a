/**
 * The original FootyCoach app's schema in public, for the imitation of the hosted project
 * (./supabase-imitation.ts). Its tables carry exactly the columns the spec lists (part 1 section 3 "Entities and
 * their fields" and part 2 section 3; where both list a table, the union), with types derived from what each
 * column holds. Three variants, all of which `npm run db:adopt` must adopt (issue 31):
 *
 * - "spec": the spec's columns exactly, its two views (knockout_leaderboard_view, user_competition_stats_view)
 *   and its remote procedures;
 * - "extras": the same plus columns, a table, a view and a type the spec does not list, as a real project grows
 *   them (among them user_selections.knocked_out_on and created_at, which the adoption reads when present);
 * - "no-views": the spec's columns exactly, and neither optional view.
 *
 * The spec gives the views' columns, not their definitions: here knockout_leaderboard_view's knocked_out_on is
 * the match day of an eliminated player's last pick (extras: the membership's own column), which differs from
 * what the picks and results give for a player eliminated for not picking (the named player ned).
 */
export type ImitationVariant = "spec" | "extras" | "no-views";

const HISTORY = `
  create schema supabase_migrations;
  create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
`;

const TABLES = `
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
    analytics_consent boolean,
    analytics_consent_at timestamptz,
    notifications_enabled boolean default true,
    fcm_token text,
    fcm_token_updated_at timestamptz
  );
  create table public.competitions (
    id uuid primary key default gen_random_uuid(),
    name text not null,
    type text not null,
    league text,
    season text,
    start_date date,
    start_match_day integer,
    current_match_day integer,
    status text default 'active',
    registration_status text default 'open',
    visibility text default 'public',
    registration_key text,
    prize text,
    knockout_winner uuid references auth.users (id),
    created_by uuid references auth.users (id),
    player_count integer default 0,
    created_at timestamptz default now(),
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
    kickoff_time timestamptz,
    home_team text,
    away_team text,
    home_score integer,
    away_score integer,
    status text default 'pending',
    result text
  );
  create table public.matchdays (
    league text,
    season text,
    match_day integer,
    first_kickoff_time timestamptz,
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
    unique (user_id, competition_id)
  );
  create table public.team_selections (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references auth.users (id) on delete cascade,
    competition_id uuid references public.competitions (id) on delete cascade,
    match_day integer,
    fixture_id bigint references public.fixtures (id),
    selected_team text,
    prediction text,
    created_at timestamptz default now(),
    team text,
    unique (user_id, competition_id, match_day)
  );
  create table public.release_notes (
    id uuid primary key default gen_random_uuid(),
    version text,
    title text,
    content text,
    release_date date,
    is_published boolean default false,
    created_by uuid references auth.users (id)
  );
  create table public.scout_entries (
    id uuid primary key default gen_random_uuid(),
    competition_id uuid references public.competitions (id),
    user_id uuid references auth.users (id) on delete cascade,
    match_day integer,
    league text,
    season text,
    entry_index integer default 0,
    total_points integer default 0,
    exact_count integer default 0,
    locked boolean default false,
    created_at timestamptz default now()
  );
  create table public.scout_predictions (
    id uuid primary key default gen_random_uuid(),
    scout_entry_id uuid references public.scout_entries (id) on delete cascade,
    fixture_id bigint references public.fixtures (id),
    home_goals integer,
    away_goals integer,
    points_awarded integer default 0,
    exact boolean default false
  );
  create table public.tickets (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references auth.users (id) on delete cascade,
    ticket_type text,
    target_competition_id uuid references public.competitions (id),
    used boolean default false,
    created_at timestamptz default now()
  );

  alter table public.profiles enable row level security;
  create policy "own profile" on public.profiles for all using (auth.uid() = id);
  alter table public.team_selections enable row level security;
  create policy "own picks" on public.team_selections for all using (auth.uid() = user_id);
  alter table public.tickets enable row level security;
  create policy "own tickets" on public.tickets for select using (auth.uid() = user_id);
`;

/** Columns, a table, a view, a type and a trigger the spec does not list. */
const EXTRAS = `
  alter table public.profiles add column created_at timestamptz default now(), add column avatar_url text;
  alter table public.user_selections add column knocked_out_on integer, add column created_at timestamptz default now();
  alter table public.team_selections add column updated_at timestamptz;
  alter table public.competitions add column description text;
  create table public.notifications (
    id bigserial primary key, user_id uuid references auth.users (id) on delete cascade, body text, read boolean default false
  );
  create type public.ticket_kind as enum ('footycoach', 'referral');
  create view public.active_players as select id, username from public.profiles where role <> 'banned';
  create function public.touch_team_selection() returns trigger language plpgsql as $$
    begin new.updated_at := now(); return new; end $$;
  create trigger team_selections_touch before update on public.team_selections
    for each row execute function public.touch_team_selection();
`;

function knockoutView(variant: ImitationVariant) {
  const knockedOutOn =
    variant === "extras"
      ? "us.knocked_out_on"
      : `case when us.status = 'eliminated' then (select max(t.match_day) from public.team_selections t
                                                  where t.user_id = us.user_id and t.competition_id = us.competition_id) end`;
  return `
    create view public.knockout_leaderboard_view as
      select us.competition_id, us.user_id, p.username as user_username,
             case when us.status = 'active' then 'Still In' when us.status = 'eliminated' then 'Eliminated' else us.status end as status,
             ${knockedOutOn} as knocked_out_on,
             (select t.selected_team from public.team_selections t
               where t.user_id = us.user_id and t.competition_id = us.competition_id
               order by t.match_day desc limit 1) as current_selection
        from public.user_selections us join public.profiles p on p.id = us.user_id;
    create view public.user_competition_stats_view as
      select us.competition_id, c.name as competition, c.type as competition_type, us.user_id, p.username,
             c.first_kickoff_time, 1 as rank, 0 as wins, 0 as draws, 0 as losses, 0 as goals_for, 0 as goals_against,
             0 as points, false as has_selection, null::text as current_selection, us.status
        from public.user_selections us
        join public.profiles p on p.id = us.user_id
        join public.competitions c on c.id = us.competition_id;`;
}

/** The original remote procedures (spec part 1 section 7, part 2 section 7): same names as ours, moved aside. */
const PROCEDURES = `
  create function public.get_eligible_teams(p_competition_id uuid, p_user_id uuid) returns table (team text)
  language sql stable as $$
    select distinct f.home_team from public.fixtures f join public.competitions c
        on c.league = f.league and c.season = f.season and c.current_match_day = f.match_day
     where c.id = p_competition_id
  $$;
  create function public.handle_referral_signup(p_referred_user_id uuid, p_referred_email text, p_referral_code text)
  returns void language plpgsql as $$ begin return; end $$;
  create function public.redeem_ticket_for_entry(p_user_id uuid, p_competition_id uuid, p_ticket_type text default null)
  returns uuid language plpgsql as $$ begin return null; end $$;
  create function public.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer)
  returns setof public.scout_entries language sql stable as $$
    select * from public.scout_entries where league = p_league and season = p_season and match_day = p_match_day
  $$;
  create function public.get_scout_leaderboard_season(p_league text, p_season text)
  returns table (user_id uuid, total_points bigint) language sql stable as $$
    select user_id, sum(total_points) from public.scout_entries where league = p_league and season = p_season group by 1
  $$;
`;

/** The original app's DDL for a variant, run by the database owner as its migrations were. */
export function originalAppSql(variant: ImitationVariant): string {
  return [HISTORY, TABLES, variant === "extras" ? EXTRAS : "", variant === "no-views" ? "" : knockoutView(variant), PROCEDURES].join("\n");
}
