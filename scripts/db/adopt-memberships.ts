/**
 * The original app's memberships (user_selections) and picks (team_selections) into the current tables
 * (decisions 019, 026).
 *
 * A pick names its team (selected_team, or team in the older form) and its match day; its fixture is the one of
 * that match day in which the team plays, the stored fixture_id when it is that fixture. An eliminated membership
 * needs the match day it was eliminated on (the current table ties the two), which the spec's user_selections does
 * not hold. It comes from, in order:
 *   1. user_selections.knocked_out_on, when the original has that column (looked up in information_schema);
 *   2. the original's knockout_leaderboard_view (spec: knocked_out_on per competition and player), when it exists:
 *      read before anything moves (snapshotKnockoutView), so it is what the original app showed its players;
 *   3. the picks and results: the first finished match day from the player's last pick on whose pick did not
 *      win (a loss, a draw or no pick: private.pick_outcome_now, the rule match-day processing applies), else the
 *      last pick's match day, else the competition's current match day.
 */
import type postgres from "postgres";
import { Columns, matchDayOf } from "./original-shape";

const O = "original_app";

export type ViewSnapshot = "read" | "absent" | "unreadable";

export interface EliminationSources {
  fromColumn: number;
  fromView: number;
  fromPicks: number;
}

/**
 * Reads the original knockout_leaderboard_view (still in public) into a temporary table: its elimination match
 * days, and "Eliminated" statuses. A view the adopting role cannot read (it errors) is reported, not fatal.
 */
export async function snapshotKnockoutView(tx: postgres.TransactionSql, original: Columns): Promise<ViewSnapshot> {
  await tx.unsafe(`create temporary table adopt_view_knockouts
                     (competition_id uuid, user_id uuid, status text, knocked_out_on integer) on commit drop`);
  const view = "knockout_leaderboard_view";
  if (!["competition_id", "user_id", "knocked_out_on"].every((c) => original.has(view, c))) return "absent";
  try {
    await tx.savepoint((sp) =>
      sp.unsafe(`
        insert into adopt_view_knockouts
        select distinct on (v.competition_id::text, v.user_id::text)
               v.competition_id::text::uuid, v.user_id::text::uuid, ${original.or("v", view, "status", "null")}::text,
               ${matchDayOf("v.knocked_out_on")}
          from public.${view} v
         where v.competition_id is not null and v.user_id is not null
         order by v.competition_id::text, v.user_id::text, v.knocked_out_on nulls last`),
    );
    return "read";
  } catch {
    return "unreadable";
  }
}

/** Copies memberships and picks; the sources of the elimination match days. Needs profiles, fixtures, competitions. */
export async function copyMembershipsAndPicks(tx: postgres.TransactionSql, original: Columns): Promise<EliminationSources> {
  const hasPicks = original.has("team_selections", "id");
  await tx.unsafe(`
    create temporary table adopt_picks (id uuid, user_id uuid, competition_id uuid, match_day integer, team text,
                                        fixture_id bigint, home_team text, created_at timestamptz) on commit drop;
    ${
      hasPicks
        ? `insert into adopt_picks
           select t.id, t.user_id, t.competition_id, t.match_day, x.team, f.id, f.home_team, coalesce(t.created_at, now())
             from ${O}.team_selections t
             join public.competitions c on c.id = t.competition_id
             cross join lateral (select coalesce(nullif(t.selected_team, ''), nullif(t.team, '')) as team) x
             join lateral (
               select f.id, f.home_team from public.fixtures f
                where f.league = c.league and f.season = c.season and f.match_day = t.match_day
                  and x.team in (f.home_team, f.away_team)
                order by f.id = t.fixture_id desc nulls last, f.kickoff_time, f.id limit 1) f on true;`
        : ""
    }
    create index on adopt_picks (user_id, competition_id, match_day);
    analyze adopt_picks`);
  if (!original.has("user_selections", "id")) return { fromColumn: 0, fromView: 0, fromPicks: 0 };

  const eliminated = `(s.status = 'eliminated' or lower(btrim(v.status)) = 'eliminated')`;
  await tx.unsafe(`
    create temporary table adopt_memberships on commit drop as
    select s.id, s.user_id, s.competition_id, c.league, c.season, c.start_match_day, c.current_match_day,
           coalesce(s.match_day, c.start_match_day) as match_day,
           case when s.status = 'completed' then 'completed' when ${eliminated} then 'eliminated' else 'active' end as status,
           ${matchDayOf(original.or("s", "user_selections", "knocked_out_on", "null"))} as from_column,
           v.knocked_out_on as from_view,
           null::integer as from_picks,
           coalesce(${original.or("s", "user_selections", "created_at", "null::timestamptz")},
                    (select min(p.created_at) from adopt_picks p where p.user_id = s.user_id and p.competition_id = s.competition_id),
                    c.created_at) as joined_at
      from ${O}.user_selections s
      join public.profiles p on p.id = s.user_id
      join public.competitions c on c.id = s.competition_id
      left join adopt_view_knockouts v on v.competition_id = s.competition_id and v.user_id = s.user_id`);

  await tx.unsafe(`
    update adopt_memberships m
       set from_picks = coalesce(
             (select min(md.match_day)
                from (select f.match_day from public.fixtures f
                       where f.league = m.league and f.season = m.season
                         and f.match_day >= greatest(m.match_day, m.start_match_day, coalesce(
                               (select max(p.match_day) from adopt_picks p
                                 where p.user_id = m.user_id and p.competition_id = m.competition_id), 1))
                       group by f.match_day
                      having bool_and(f.status in ('complete', 'postponed'))) md
                left join adopt_picks p
                  on p.user_id = m.user_id and p.competition_id = m.competition_id and p.match_day = md.match_day
                left join public.fixtures f on f.id = p.fixture_id
               where private.pick_outcome_now(p.team, f) not in ('win', 'postponed')),
             (select max(p.match_day) from adopt_picks p where p.user_id = m.user_id and p.competition_id = m.competition_id),
             m.current_match_day)
     where m.status = 'eliminated' and m.from_column is null and m.from_view is null;

    insert into public.user_selections (id, user_id, competition_id, match_day, status, knocked_out_on, joined_at)
    select id, user_id, competition_id, match_day, status,
           case when status = 'eliminated' then coalesce(from_column, from_view, from_picks) end, coalesce(joined_at, now())
      from adopt_memberships
    on conflict do nothing;

    insert into public.team_selections (id, user_id, competition_id, match_day, fixture_id, selected_team, prediction, created_at)
    select p.id, p.user_id, p.competition_id, p.match_day, p.fixture_id, p.team,
           case when p.home_team = p.team then 'home_win' else 'away_win' end, p.created_at
      from adopt_picks p
      join public.user_selections us on us.user_id = p.user_id and us.competition_id = p.competition_id
    on conflict do nothing`);

  const [sources] = await tx.unsafe<EliminationSources[]>(`
    select count(*) filter (where from_column is not null)::int as "fromColumn",
           count(*) filter (where from_column is null and from_view is not null)::int as "fromView",
           count(*) filter (where from_column is null and from_view is null)::int as "fromPicks"
      from adopt_memberships m
     where m.status = 'eliminated' and exists (select 1 from public.user_selections us where us.id = m.id)`);
  return sources;
}
