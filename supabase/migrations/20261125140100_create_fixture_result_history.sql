-- Every result change is kept (decision 020): who changed a fixture's status or score, when, through which path
-- (admin panel, CSV upload, data feed), from what to what, and why. And each fixture says where its current
-- result came from, so the data feed never overwrites a result an admin entered by hand.

-- admin: the results form (or accepting the feed's result); csv: the fixtures upload; feed: the scheduler's
-- data feed. Null while the fixture has no result (pending).
alter table public.fixtures add column result_source text;
alter table public.fixtures add constraint fixtures_result_source_check
  check (result_source in ('admin', 'csv', 'feed'));
alter table public.fixtures add constraint fixtures_result_source_only_with_result
  check (result_source is null or status in ('complete', 'postponed'));

-- Results that exist today were entered in the admin panel or by CSV upload: they are the admins' own, so the
-- feed lists a disagreement for review instead of replacing them.
update public.fixtures set result_source = 'admin' where status in ('complete', 'postponed');

create table public.fixture_result_changes (
  id bigint generated always as identity primary key,
  fixture_id bigint not null references public.fixtures (id) on delete cascade,
  changed_at timestamptz not null default public.app_now(),
  source text not null,
  -- the admin who made it (null for the feed's own changes)
  changed_by uuid references public.profiles (id) on delete set null,
  old_status text not null,
  old_home_score integer,
  old_away_score integer,
  new_status text not null,
  new_home_score integer,
  new_away_score integer,
  reason text,
  -- the fixture had a complete result before: what depended on it was re-processed and players were told
  is_correction boolean not null,
  -- how many players got a notice about it
  notices integer not null default 0,
  constraint fixture_result_changes_source_check check (source in ('admin', 'csv', 'feed')),
  constraint fixture_result_changes_status_check
    check (old_status in ('pending', 'complete', 'postponed') and new_status in ('pending', 'complete', 'postponed')),
  constraint fixture_result_changes_reason_length check (char_length(reason) <= 500)
);

create index fixture_result_changes_fixture_idx on public.fixture_result_changes (fixture_id, id);

alter table public.fixture_result_changes enable row level security;
revoke all on table public.fixture_result_changes from public, anon, authenticated;
grant select on table public.fixture_result_changes to authenticated;
grant all on table public.fixture_result_changes to service_role;

-- Written only by private.apply_fixture_result (definer); read by admins in the admin panel.
create policy fixture_result_changes_select_admin on public.fixture_result_changes for select to authenticated
  using ((select private.is_admin()));

comment on table public.fixture_result_changes is
  'History of every result change (first entry, correction, postponement) with its source, time, who and why.';
