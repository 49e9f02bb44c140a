-- private.today_in_zone looked the zone up in pg_timezone_names, which reads the whole time-zone database on every
-- call: about 45 ms per profile insert or update (the 18+ trigger) and per competition creation. Postgres checks a
-- zone name itself when converting, so convert and fall back to UTC when the name is unknown. Only IANA-style
-- names (Area/City, UTC) are taken, as before: no POSIX offsets such as 'UTC+5', whose sign is inverted.
create or replace function private.today_in_zone(p_time_zone text) returns date
  language plpgsql
  stable
  set search_path = ''
as $$
begin
  if p_time_zone is null or p_time_zone !~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$'
     or p_time_zone ~ '[0-9]$' and p_time_zone !~ '/' then
    return (public.app_now() at time zone 'UTC')::date;
  end if;
  return (public.app_now() at time zone p_time_zone)::date;
exception
  when invalid_parameter_value then
    return (public.app_now() at time zone 'UTC')::date;
end
$$;

revoke all on function private.today_in_zone(text) from public, anon, authenticated;
