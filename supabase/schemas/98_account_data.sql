-- Your account and your data (rules file, "Your account and your data"; decision 029): everything stored about the
-- signed-in player as one JSON document (public.my_data, the download of /profile/data), and the deletion of an
-- account (private.delete_account). Each is one function, so each runs in one transaction; they read and write the
-- tables of every other subject, so this file comes last. tests/db/account-deletion-walk.test.ts walks every view,
-- table and function a player can read after a deletion, from the catalog, looking for the old names.
--
-- What the password-checked actions around them do (throttle, password, e-mail change links, sessions) is the
-- server's account code: app/models/account-settings.server.ts.

-- ---------------------------------------------------------------------------------------------------------
-- The download: everything stored about the caller, nothing of anyone else
-- ---------------------------------------------------------------------------------------------------------

-- One jsonb document for auth.uid() (null when signed out); its keys are documented in docs/your-data.md. Never
-- tokens, password hashes, push keys or endpoints (only the push service's host), and nothing of another player:
-- referrals are counted and dated, never named; a pick set for the player by the organiser says so, not who.
-- Picks of match days whose deadline has not passed are "plans". Security definer: it reads the account schema
-- (e-mail, sessions) that no API role may read.
create function private.my_data() returns jsonb
  language sql
  stable
  security definer
  set search_path = ''
as $$
  with me as (select (select auth.uid()) as id),
  picks as (
    select ts.match_day, c.league, c.season, c.name as competition,
           public.matchday_deadline_passed(c.league, c.season, ts.match_day) as deadline_passed,
           pg_catalog.jsonb_build_object(
             'competition', c.name, 'type', c.type, 'league', c.league, 'season', c.season, 'match_day', ts.match_day,
             'team', ts.selected_team, 'home_team', f.home_team, 'away_team', f.away_team,
             'kickoff_time', f.kickoff_time, 'fixture_status', f.status, 'home_score', f.home_score,
             'away_score', f.away_score,
             -- who chose it: the player, or the organiser through Manage Selections (never who that was)
             'chosen_by', case when ts.auto_picked then 'auto-pick'
                               when ts.set_by is null or ts.set_by = ts.user_id then 'you' else 'organiser' end,
             'auto_picked', ts.auto_picked,
             'created_at', ts.created_at, 'updated_at', ts.updated_at) as pick
      from public.team_selections ts
      join public.competitions c on c.id = ts.competition_id
      join public.fixtures f on f.id = ts.fixture_id
     where ts.user_id = (select me.id from me)
  )
  select case when me.id is null then null else pg_catalog.jsonb_build_object(
    'format', 'footycoach-data/1',
    'generated_at', public.app_now(),
    'account', (
      select pg_catalog.jsonb_build_object(
               'email', a.email, 'created_at', a.created_at, 'confirmed_at', a.confirmed_at, 'updated_at', a.updated_at,
               'pending_email_change', (
                 select pg_catalog.jsonb_build_object('new_email', t.new_email, 'requested_at', t.created_at, 'expires_at', t.expires_at)
                   from account.email_change_tokens t
                  where t.user_id = a.id and t.used_at is null and t.expires_at > public.app_now()
                  order by t.created_at desc limit 1))
        from account.accounts a where a.id = me.id),
    'profile', (
      select pg_catalog.jsonb_build_object(
               'username', p.username, 'display_name', p.display_name, 'date_of_birth', p.date_of_birth,
               'gender', p.gender, 'gender_self_describe', p.gender_self_describe, 'time_zone', p.time_zone,
               'role', p.role, 'notifications_enabled', p.notifications_enabled, 'referral_code', p.referral_code,
               'created_at', p.created_at, 'updated_at', p.updated_at)
        from public.profiles p where p.id = me.id),
    'consent', (
      select pg_catalog.jsonb_build_object('analytics', p.analytics_consent, 'analytics_chosen_at', p.analytics_consent_at)
        from public.profiles p where p.id = me.id),
    'memberships', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'competition', c.name, 'type', c.type, 'league', c.league, 'season', c.season,
               'joined_at', us.joined_at, 'joined_on_match_day', us.match_day, 'status', us.status,
               'knocked_out_on', us.knocked_out_on, 'points', us.points, 'wins', us.wins, 'draws', us.draws,
               'losses', us.losses, 'goals_for', us.goals_for, 'goals_against', us.goals_against)
             order by us.joined_at, c.name)
        from public.user_selections us
        join public.competitions c on c.id = us.competition_id
       where us.user_id = me.id), '[]'::jsonb),
    'picks', coalesce((
      select pg_catalog.jsonb_agg(k.pick order by k.league, k.season, k.match_day, k.competition)
        from picks k where k.deadline_passed), '[]'::jsonb),
    'plans', coalesce((
      select pg_catalog.jsonb_agg(k.pick order by k.league, k.season, k.match_day, k.competition)
        from picks k where not k.deadline_passed), '[]'::jsonb),
    -- the season joker (decision 028): one per competition, on the match day whose points it doubles
    'jokers', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'competition', c.name, 'league', c.league, 'season', c.season, 'match_day', j.match_day,
               'played', public.matchday_deadline_passed(c.league, c.season, j.match_day),
               'created_at', j.created_at, 'updated_at', j.updated_at)
             order by c.league, c.season, j.match_day, c.name)
        from public.season_jokers j
        join public.competitions c on c.id = j.competition_id
       where j.user_id = me.id), '[]'::jsonb),
    'scout_entries', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'competition', c.name, 'league', e.league, 'season', e.season, 'match_day', e.match_day,
               'entry_index', e.entry_index, 'total_points', e.total_points, 'exact_count', e.exact_count,
               'created_at', e.created_at, 'updated_at', e.updated_at,
               'predictions', coalesce((
                 select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                          'home_team', f.home_team, 'away_team', f.away_team, 'kickoff_time', f.kickoff_time,
                          'home_goals', sp.home_goals, 'away_goals', sp.away_goals, 'points', sp.points_awarded,
                          'exact', sp.exact, 'updated_at', sp.updated_at)
                        order by f.kickoff_time, f.id)
                   from public.scout_predictions sp
                   join public.fixtures f on f.id = sp.fixture_id
                  where sp.scout_entry_id = e.id), '[]'::jsonb))
             order by e.league, e.season, e.match_day, e.entry_index, c.name)
        from public.scout_entries e
        join public.competitions c on c.id = e.competition_id
       where e.user_id = me.id), '[]'::jsonb),
    'tickets', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'type', t.ticket_type, 'competition', c.name, 'valid_from_match_day', t.valid_from_match_day,
               'used', t.used, 'used_at', t.used_at, 'created_at', t.created_at)
             order by t.created_at, t.id)
        from public.tickets t
        left join public.competitions c on c.id = t.target_competition_id
       where t.user_id = me.id), '[]'::jsonb),
    'referrals', pg_catalog.jsonb_build_object(
      'friends_referred', (select count(*) from public.referrals r where r.referrer_id = me.id),
      'referred_at', coalesce((
        select pg_catalog.jsonb_agg(r.created_at order by r.created_at)
          from public.referrals r where r.referrer_id = me.id), '[]'::jsonb)),
    'notices', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'kind', n.kind, 'text', n.body, 'link', n.link, 'created_at', n.created_at, 'read_at', n.read_at)
             order by n.created_at, n.id)
        from public.notices n where n.user_id = me.id), '[]'::jsonb),
    'push_subscriptions', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('service', x.service, 'created_at', x.created_at, 'updated_at', x.updated_at)
             order by x.created_at)
        from (select case when s.kind = 'fcm' then 'fcm.googleapis.com'
                          else pg_catalog.substring(s.endpoint, '^https://([^/:?#]+)') end as service,
                     s.created_at, s.updated_at
                from public.push_subscriptions s where s.user_id = me.id
              union all
              -- the token the Firebase SDK kept on the profile (decision 014)
              select 'fcm.googleapis.com', p.fcm_token_updated_at, p.fcm_token_updated_at
                from public.profiles p where p.id = me.id and p.fcm_token is not null) x), '[]'::jsonb),
    'sessions', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'created_at', s.created_at, 'last_used_at', s.last_seen_at, 'expires_at', s.expires_at)
             order by s.created_at)
        from account.sessions s where s.user_id = me.id and s.expires_at > public.app_now()), '[]'::jsonb),
    'reminders', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'competition', c.name, 'match_day', r.match_day, 'kind', r.kind, 'sent_at', r.sent_at)
             order by r.sent_at, c.name)
        from public.reminder_log r
        join public.competitions c on c.id = r.competition_id
       where r.user_id = me.id), '[]'::jsonb)) end
  from me
$$;

create function public.my_data() returns jsonb
  language sql
  stable
  set search_path = ''
as $$
  select private.my_data()
$$;

comment on function public.my_data() is
  'Everything stored about the signed-in player (null when signed out), the download of /profile/data; keys in docs/your-data.md.';

revoke all on function private.my_data() from public, anon;
grant execute on function private.my_data() to authenticated, service_role;
revoke all on function public.my_data() from public, anon;
grant execute on function public.my_data() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Deleting an account
-- ---------------------------------------------------------------------------------------------------------

-- Deletes the account of p_user_id, exactly as the rules file says, in the caller's transaction. Returns
-- 'deleted', 'last_admin' (refused: the last admin cannot delete their account; nothing changed) or 'not_found'
-- (no such account, or already deleted). The caller has checked the password (app/models/account-settings.server.ts).
--
-- Gone: the e-mail and password (the account row stays without them: its id holds what is kept), sessions, reset,
-- confirmation and e-mail change links, the throttle's rows for the address and the account, the development
-- outbox's mail to the address, push subscriptions and the pushes queued or sent, consent, the referral code and
-- who referred the player, the friends they referred (the friends keep their accounts; the tickets the player
-- earned go with their own), notices, reminders sent, tickets not spent on an entry that stays, plans (picks of match
-- days whose deadline has not passed) and Scout entries not yet locked, the date of birth, gender, display name and
-- time zone, and the memberships of competitions still open for registration.
-- Kept, under "Deleted player" and a short stable tag of unambiguous letters and digits ("Deleted player 7F3K"):
-- picks and Scout entries of match days whose deadline has passed, and the memberships of competitions no longer
-- open for registration, so other players' tables do not change; competitions they created go on (admins may do
-- everything a creator may: Manage Selections, the registration key). The old username and display name are free
-- at once (profiles_claim_names), the e-mail may sign up again as a new account.
--
-- Lock order (30_competitions_and_membership.sql): the admins' rows (two last admins deleting at once: the second
-- waits, then sees the first gone), then the player's competitions in id order, then their memberships and picks.
create function private.delete_account(p_user_id uuid) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_email text;
  v_profile public.profiles%rowtype;
  v_competition uuid;
  v_tag text;
begin
  select a.email into v_email from account.accounts a where a.id = p_user_id for update;
  if v_email is null then
    return 'not_found';
  end if;

  perform 1 from public.profiles p where p.role = 'admin' order by p.id for update;
  select * into v_profile from public.profiles p where p.id = p_user_id;
  if v_profile.role = 'admin'
     and not exists (select 1 from public.profiles p
                      where p.role = 'admin' and p.id <> p_user_id and p.deleted_at is null) then
    return 'last_admin';
  end if;

  for v_competition in
    select x.id from (select us.competition_id from public.user_selections us where us.user_id = p_user_id
                      union
                      select e.competition_id from public.scout_entries e where e.user_id = p_user_id) x (id)
     order by x.id
  loop
    perform private.lock_competition(v_competition);
  end loop;

  -- Memberships of competitions still open for registration (their picks go with them), then plans elsewhere.
  delete from public.user_selections us
   where us.user_id = p_user_id and private.registration_is_open(us.competition_id);
  delete from public.team_selections ts
   using public.competitions c
   where ts.user_id = p_user_id and c.id = ts.competition_id
     and not public.matchday_deadline_passed(c.league, c.season, ts.match_day);

  -- A joker not played yet is a plan too; a played one doubled points other players' tables show, so it stays.
  delete from public.season_jokers j
   using public.competitions c
   where j.user_id = p_user_id and c.id = j.competition_id
     and not public.matchday_deadline_passed(c.league, c.season, j.match_day);

  -- Scout entries not locked yet (lock = their match day's deadline), and the season rows they leave behind.
  delete from public.scout_entries e
   where e.user_id = p_user_id and not public.matchday_deadline_passed(e.league, e.season, e.match_day);
  delete from public.scout_season_totals s
   where s.user_id = p_user_id
     and not exists (select 1 from public.scout_entries e
                      where e.user_id = p_user_id and e.league = s.league and e.season = s.season);
  perform private.refresh_scout_season_totals(s.league, s.season, array[p_user_id])
     from public.scout_season_totals s where s.user_id = p_user_id;

  delete from public.tickets t
   where t.user_id = p_user_id and not exists (select 1 from public.scout_entries e where e.ticket_id = t.id);
  delete from public.referrals r where r.referrer_id = p_user_id;
  delete from public.notices n where n.user_id = p_user_id;
  delete from public.reminder_log r where r.user_id = p_user_id;
  delete from private.push_deliveries d where d.user_id = p_user_id;
  delete from public.push_subscriptions s where s.user_id = p_user_id;

  delete from account.sessions s where s.user_id = p_user_id;
  delete from account.password_reset_tokens t where t.user_id = p_user_id;
  delete from account.email_confirmation_tokens t where t.user_id = p_user_id;
  delete from account.email_change_tokens t where t.user_id = p_user_id;
  -- Throttle keys: '<kind>:email:<address>' and '<kind>:user:<account id>' (10_accounts.sql).
  delete from account.auth_attempts t
   where t.key in (select k.kind || ':email:' || v_email from pg_catalog.unnest(
                     array['login', 'reset', 'signup', 'resend']) as k (kind)
                   union all
                   select 'account:user:' || p_user_id::text);
  delete from account.mail_outbox m where m.to_email = v_email;

  if v_profile.id is not null then
    -- A tag nobody holds as a name (profile_names also holds display names, which may contain spaces).
    loop
      v_tag := private.random_code(4);
      exit when not exists (select 1 from private.profile_names n
                             where n.name_key = private.name_key('Deleted player ' || v_tag));
    end loop;
    update public.profiles p
       set deleted_at = public.app_now(), username = 'Deleted player ' || v_tag, display_name = null, email = null,
           date_of_birth = null, gender = null, gender_self_describe = null, time_zone = 'UTC',
           analytics_consent = null, analytics_consent_at = null, notifications_enabled = false,
           fcm_token = null, fcm_token_updated_at = null, referral_code = null, referred_by = null, role = 'player'
     where p.id = p_user_id;
  end if;

  update account.accounts a
     set email = null, password_hash = null, signup_referral_code = null, confirmed_at = null,
         login_hold = null, login_hold_until = null
   where a.id = p_user_id;
  return 'deleted';
end
$$;

revoke all on function private.delete_account(uuid) from public, anon, authenticated;
grant execute on function private.delete_account(uuid) to service_role;
