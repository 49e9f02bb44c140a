-- Release notes: published ones are readable by anyone (also signed out, role anon: the only thing anon may
-- read); admins manage all (admin panel, /admin/release-notes).

create table public.release_notes (
  id uuid primary key default gen_random_uuid(),
  version text not null,
  title text not null,
  content text not null,  -- Markdown
  release_date date not null default ((public.app_now() at time zone 'UTC')::date),
  is_published boolean not null default false,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  constraint release_notes_version_length check (char_length(btrim(version)) between 1 and 50),
  constraint release_notes_title_length check (char_length(btrim(title)) between 1 and 200),
  constraint release_notes_content_length check (char_length(btrim(content)) between 1 and 100000)
);

create index release_notes_release_date_idx on public.release_notes (release_date desc);

create trigger release_notes_set_updated_at
  before update on public.release_notes
  for each row execute function private.set_updated_at();

alter table public.release_notes enable row level security;

create policy release_notes_select_published on public.release_notes
  for select to anon, authenticated
  using (is_published);

create policy release_notes_select_admin on public.release_notes
  for select to authenticated
  using ((select private.is_admin()));

create policy release_notes_insert_admin on public.release_notes
  for insert to authenticated
  with check ((select private.is_admin()));

create policy release_notes_update_admin on public.release_notes
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy release_notes_delete_admin on public.release_notes
  for delete to authenticated
  using ((select private.is_admin()));

revoke all on table public.release_notes from public, anon, authenticated;
grant select on table public.release_notes to anon;
grant select, insert, update, delete on table public.release_notes to authenticated;
grant all on table public.release_notes to service_role;
