-- What the data feed knows about a fixture (decision 020): its match id (the feed matches a fixture by it once
-- seen; the unique key makes a second import create nothing twice), what the feed last said about the result
-- (for the admin panel's review of hand-entered results), what it said that the game did not follow (a match
-- moved to another match day after picks were made on it), and the live score of a match in play.

alter table public.fixtures
  add column feed_match_id bigint,
  -- the feed's lastUpdated of the match as last applied: an unchanged match is skipped on the next sync
  add column feed_updated_at timestamptz,
  -- the feed's word on the result, mapped to the app's statuses; scores after 90 minutes
  add column feed_status text,
  add column feed_home_score integer,
  add column feed_away_score integer,
  -- "Keep mine" in the admin panel: the feed result (status:home:away) the admin chose not to take
  add column feed_kept_result text,
  -- the feed moved the match to another match day but the game kept it (feed_flag says why): feed_match_day is
  -- the feed's match day; feed_kickoff_time is the feed's kickoff when the game kept its own (the match day's
  -- deadline had passed)
  add column feed_flag text,
  add column feed_match_day integer,
  add column feed_kickoff_time timestamptz,
  -- a match in play (IN_PLAY, PAUSED): its running score, never a result
  add column live_status text,
  add column live_home_score integer,
  add column live_away_score integer,
  add column live_updated_at timestamptz,
  add constraint fixtures_feed_match_key unique (feed_match_id),
  add constraint fixtures_feed_status_check check (feed_status in ('pending', 'live', 'complete', 'postponed')),
  add constraint fixtures_feed_scores_range
    check (feed_home_score between 0 and 99 and feed_away_score between 0 and 99),
  add constraint fixtures_feed_flag_check
    check (feed_flag is null or (feed_flag in ('moved_with_picks', 'move_refused') and feed_match_day is not null)),
  add constraint fixtures_live_status_check check (live_status in ('IN_PLAY', 'PAUSED')),
  add constraint fixtures_live_only_pending check (live_status is null or status = 'pending'),
  add constraint fixtures_live_scores check (
    (live_status is null and live_home_score is null and live_away_score is null)
    or (live_status is not null and live_home_score between 0 and 99 and live_away_score between 0 and 99));

-- the admin panel's review list: hand-entered results the feed has an opinion on
create index fixtures_feed_review_idx on public.fixtures (league, season)
  where result_source in ('admin', 'csv') and feed_status in ('complete', 'postponed');
-- the admin panel's flags
create index fixtures_feed_flag_idx on public.fixtures (league, season)
  where feed_flag is not null or feed_kickoff_time is not null;
