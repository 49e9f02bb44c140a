-- The names of deleted accounts' profiles ("Deleted player XXXX") are reserved: a live profile cannot take one as
-- its username or display name (issue 33).
create or replace function private.profiles_claim_names() returns trigger
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

  -- "Deleted player XXXX" names the profiles of deleted accounts (98_account_data.sql): no live player may take one,
  -- held or not, or they could pass for a deleted player.
  if new.deleted_at is null then
    v_username_taken := v_username_taken or v_username like 'deleted player%';
    v_display_taken := v_display_taken or coalesce(v_display like 'deleted player%', false);
  end if;

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

