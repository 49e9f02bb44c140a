-- Autovacuum sooner on the tables that match-day processing rewrites in bulk.
--
-- Entering a match day's results updates the stored stats of most members (user_selections: non-HOT updates,
-- the leaderboard indexes of 20261122300000 change) and re-writes most ranks (membership_ranks). Until vacuum
-- has run, a deep leaderboard page (an ordered index scan with an offset) also walks the dead index entries
-- and checks the heap for visibility: in scripts/bench-results.ts page 5,000 of a 100,000-member season
-- leaderboard took ~110 ms right after processing and ~5 ms after VACUUM. With the default scale factor
-- (20% of the table) a large table waits for many such rounds; 2% (plus the base threshold) vacuums these two
-- tables within about a minute of a results round.

alter table public.user_selections set (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);

alter table public.membership_ranks set (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);
