-- One namespace for usernames and display names (rules file, Accounts): nobody may take another account's
-- username or display name as their own username or display name, compared case-insensitively after trimming,
-- so nobody can appear on a Scout leaderboard as somebody else ("DemoPlayer", "demoplayer" and " DemoPlayer "
-- as a display name all showed as DemoPlayer). A player's own username and display name may be the same.
--
-- * private.name_key(name): what two names are compared by. NFKC first (full-width "ＤｅｍｏＰｌａｙｅｒ" and the
--   compatibility spaces become plain letters and spaces), then invisible format characters are removed
--   (zero-width spaces and joiners, bidi marks, soft hyphen, variation selectors: "Demo<ZWSP>Player" looks like
--   "DemoPlayer"), then surrounding whitespace, then lower case. Look-alike letters of other scripts (Cyrillic
--   "а" for Latin "a") are not folded: that needs a confusables table.
-- * private.profile_names: one row per (name key) held by a profile; the primary key on name_key is the rule.
--   Kept by the trigger profiles_claim_names after every insert and every update of username or display_name:
--   it frees the keys the profile no longer uses and claims its one or two keys with INSERT ... ON CONFLICT on
--   the primary key. That is race-safe: when two transactions claim one key at the same time, the second waits
--   for the first and, if the first commits, finds the key taken (a check that only reads would let both pass).
--   Keys are claimed in sorted order, so two saves wanting each other's names cannot deadlock.
-- * A taken name raises unique_violation (23505) naming the field: constraint profiles_username_taken ("Username
--   is already taken.") or profiles_display_name_taken ("Display name is already taken."), the username first
--   when both are. The profile form shows that message on that field (app/models/profile.server.ts).
--   profiles_username_lower_key (20261122000300) stays: it answers first for one username against another, and
--   keeps username uniqueness even where triggers are off (bulk loads); the form reads it as the username.
-- * Existing data: if profiles already clash, this migration stops with the list of clashing names (profile ids)
--   and changes nothing, so that someone decides who keeps a name rather than the migration; the demo seed has
--   no display names, and no two usernames can clash (profiles_username_lower_key, ASCII-only usernames).

create function private.name_key(p_name text) returns text
  language sql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
  select nullif(
    pg_catalog.lower(pg_catalog.btrim(
      pg_catalog.regexp_replace(
        pg_catalog.normalize(p_name, 'NFKC'),
        '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]',
        '', 'g'),
      ' ' || pg_catalog.chr(9) || pg_catalog.chr(10) || pg_catalog.chr(11) || pg_catalog.chr(12) || pg_catalog.chr(13))),
    '')
$$;

comment on function private.name_key(text) is
  'The key usernames and display names are compared by: NFKC, invisible format characters removed, trimmed, '
  'lower case; null for a blank name.';

revoke all on function private.name_key(text) from public, anon, authenticated;

create table private.profile_names (
  name_key text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  constraint profile_names_key_not_blank check (name_key <> '')
);

create index profile_names_user_id_idx on private.profile_names (user_id);

comment on table private.profile_names is
  'The usernames and display names in use, by private.name_key: one holder per key (the primary key is the '
  'one-namespace rule). Kept by the trigger profiles_claim_names; never written by players.';

alter table private.profile_names enable row level security;
revoke all on private.profile_names from public, anon, authenticated;

do $$
declare
  v_clashes text;
begin
  with names as (
    select p.id, 'username' as field, p.username as name, private.name_key(p.username) as name_key
      from public.profiles p
    union all
    select p.id, 'display name', p.display_name, private.name_key(p.display_name)
      from public.profiles p
     where p.display_name is not null
  ), clashing as (
    select n.name_key from names n where n.name_key is not null group by n.name_key having count(distinct n.id) > 1
  )
  select pg_catalog.string_agg(pg_catalog.format('%s %L of profile %s', n.field, n.name, n.id), '; '
                               order by n.name_key, n.id, n.field)
    into v_clashes
    from names n join clashing c on c.name_key = n.name_key;
  if v_clashes is not null then
    raise exception 'Usernames and display names must be unique across profiles (compared case-insensitively after trimming); these clash: %', v_clashes
      using hint = 'Decide who keeps each name, change the others (for example update public.profiles set display_name = null where id = ...), then run the migrations again.';
  end if;
end
$$;

insert into private.profile_names (name_key, user_id)
select k.name_key, p.id
  from public.profiles p
 cross join lateral (values (private.name_key(p.username)), (private.name_key(p.display_name))) as k(name_key)
 where k.name_key is not null
 group by k.name_key, p.id;

create function private.profiles_claim_names() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_username text := private.name_key(new.username);
  v_display text := private.name_key(new.display_name);
  v_key text;
  v_username_taken boolean := false;
  v_display_taken boolean := false;
begin
  -- The names this profile no longer uses are free again.
  delete from private.profile_names n
   where n.user_id = new.id
     and n.name_key is distinct from v_username
     and n.name_key is distinct from v_display;

  for v_key in
    select k.name_key from (values (v_username), (v_display)) as k(name_key)
     where k.name_key is not null
     group by k.name_key
     order by k.name_key
  loop
    -- Inserted, or already this profile's (the no-op update keeps it): found. Another profile's: not found.
    insert into private.profile_names as n (name_key, user_id)
    values (v_key, new.id)
    on conflict (name_key) do update set user_id = excluded.user_id
     where n.user_id = excluded.user_id;
    if not found then
      v_username_taken := v_username_taken or v_key = v_username;
      v_display_taken := v_display_taken or v_key is not distinct from v_display;
    end if;
  end loop;

  if v_username_taken then
    raise exception using
      errcode = 'unique_violation',
      constraint = 'profiles_username_taken',
      message = 'Username is already taken.';
  end if;
  if v_display_taken then
    raise exception using
      errcode = 'unique_violation',
      constraint = 'profiles_display_name_taken',
      message = 'Display name is already taken.';
  end if;
  return null;
end
$$;

revoke all on function private.profiles_claim_names() from public, anon, authenticated;

create trigger profiles_claim_names
  after insert or update of username, display_name on public.profiles
  for each row execute function private.profiles_claim_names();
