-- The knockout pick's outcome in match-day processing comes from private.pick_outcome_now, the rule "if it ended
-- now" already uses (win, draw, loss, postponed, no pick): one home for it. Behaviour is unchanged.
create or replace function private.process_competition(p_competition_id uuid) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_md integer;
  v_done integer := 0;
  v_remaining integer;
  v_out uuid[];
  v_rolled boolean;
  v_left integer;
  v_winner uuid;
begin
  perform private.lock_competition(p_competition_id);
  loop
    select * into v_c from public.competitions c where c.id = p_competition_id;
    exit when not found or v_c.status <> 'active' or v_c.type not in ('knockout', 'season');
    v_md := v_c.current_match_day;
    exit when exists (select 1 from public.competition_matchday_results r
                       where r.competition_id = p_competition_id and r.match_day = v_md);
    -- never before the match day's deadline: picks are still open, nobody is out "for no pick" yet
    exit when not public.matchday_closed(v_c.league, v_c.season, v_md);
    -- finished: has fixtures, none pending
    exit when not exists (select 1 from public.fixtures f
                           where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md)
           or exists (select 1 from public.fixtures f
                       where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md
                         and f.status = 'pending');

    v_rolled := false;
    v_left := null;
    v_out := null;
    if v_c.type = 'knockout' then
      select count(*)::integer,
             pg_catalog.array_agg(x.user_id) filter (where not x.survives)
        into v_remaining, v_out
        from (
          select us.user_id,
                 -- The pick's outcome has one home, private.pick_outcome_now (also "if it ended now"): on a
                 -- processed match day every fixture is complete or postponed, so it is win, draw, loss,
                 -- postponed or no_pick here.
                 private.pick_outcome_now(ts.selected_team, f) in ('win', 'postponed') as survives
            from public.user_selections us
            left join public.team_selections ts
              on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = v_md
            left join public.fixtures f on f.id = ts.fixture_id
           where us.competition_id = p_competition_id and us.status = 'active'
        ) x;

      if v_out is not null and pg_catalog.cardinality(v_out) = v_remaining then
        v_rolled := true;  -- every remaining member would go out: nobody does
        v_out := null;
      end if;
      if v_out is not null then
        update public.user_selections us
           set status = 'eliminated', knocked_out_on = v_md
          from pg_catalog.unnest(v_out) as o (user_id)
         where us.competition_id = p_competition_id and us.user_id = o.user_id and us.status = 'active';
      end if;
      v_left := v_remaining - coalesce(pg_catalog.cardinality(v_out), 0);

      if v_left = 1 or (v_left > 1 and v_md >= v_c.total_match_days) then
        select us.user_id into v_winner
          from public.user_selections us
         where us.competition_id = p_competition_id and us.status = 'active'
         order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
         limit 1;
        update public.user_selections us set status = 'completed'
         where us.competition_id = p_competition_id and us.status = 'active';
        update public.competitions c
           set knockout_winner = v_winner, status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      elsif v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    else
      if v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    end if;

    insert into public.competition_matchday_results as r
      (competition_id, match_day, processed_at, still_in, eliminated, rolled_over)
    values (p_competition_id, v_md, public.app_now(), v_left,
            case when v_c.type = 'knockout' then coalesce(pg_catalog.cardinality(v_out), 0) end, v_rolled);
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;
