-- A deleted account (rules file, "Your account and your data"; decision 029) keeps its rows so that other players'
-- past tables do not change: the account row without e-mail or password (nobody can log in; the address may sign
-- up again), the profile named "Deleted player" and a short stable tag, with its personal details cleared
-- (deleted_at says when). A deleted player is no longer a player: no FootyCoach tickets for new Scout competitions.
alter table account.accounts alter column email drop not null;
alter table account.accounts alter column password_hash drop not null;
alter table account.accounts add constraint accounts_credentials_together
  check ((email is null) = (password_hash is null));

alter table public.profiles alter column email drop not null;
alter table public.profiles alter column date_of_birth drop not null;
alter table public.profiles alter column gender drop not null;
alter table public.profiles alter column referral_code drop not null;
alter table public.profiles add column deleted_at timestamptz;
alter table public.profiles drop constraint profiles_username_format;
alter table public.profiles add constraint profiles_username_format check (
  (deleted_at is null and char_length(username) between 3 and 30 and username ~ '^[A-Za-z0-9_.-]+$')
  or (deleted_at is not null and username ~ '^Deleted player [A-HJ-NP-Z2-9]{4}$')
);
alter table public.profiles add constraint profiles_details_until_deleted check (
  deleted_at is not null
  or (email is not null and date_of_birth is not null and gender is not null and referral_code is not null)
);

create or replace function private.grant_footycoach_tickets_for_competition() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.type = 'scout' and new.status = 'active' then
    insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
    select p.id, 'footycoach', new.id, new.current_match_day from public.profiles p where p.deleted_at is null
    on conflict do nothing;
  elsif new.type = 'scout' and tg_op = 'UPDATE' and old.status = 'active' then
    -- closed: unused FootyCoach tickets expire
    delete from public.tickets t
     where t.target_competition_id = new.id and t.ticket_type = 'footycoach' and not t.used;
  end if;
  return null;
end
$$;
