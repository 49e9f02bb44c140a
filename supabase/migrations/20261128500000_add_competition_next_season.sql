-- History and seasons (decision 030): a competition may have one next season, which keeps its name.
--
-- competitions.previous_competition_id names the ended private competition a next season follows (at most one next
-- season each: competitions_previous_competition_key). The unique name index holds for first seasons only, so a next
-- season keeps its name; creation's own check (private.create_competition) still refuses every name in use.
-- Players read the new column (column grant). Notices gain the kind 'next_season': the invitation to a next season.

alter table public.competitions
  add column previous_competition_id uuid references public.competitions (id) on delete set null;

alter table public.competitions
  add constraint competitions_previous_competition_key unique (previous_competition_id);

drop index public.competitions_name_type_key;
create unique index competitions_name_type_key on public.competitions (lower(btrim(name)), type)
  where previous_competition_id is null;

grant select (previous_competition_id) on table public.competitions to authenticated;

alter table public.notices drop constraint notices_kind_check;
alter table public.notices
  add constraint notices_kind_check check (kind in ('result_correction', 'next_season'));

comment on table public.notices is
  'One notice per player per result correction that changed their outcome (private.notify_result_correction), and '
  'one per invitation to a next season (private.start_next_season).';
