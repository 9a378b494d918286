-- PostgreSQL differs: the batch as arrays in one statement, listed and unlisted urls together.
-- Writes a batch of stats exactly as given, NULLs included, in one statement (the batch as
-- parallel arrays, keys distinct; times in epoch milliseconds). A listed url's stats are its
-- listed_origin rows, every lister's (V028), updated in place; only the urls no lister lists have
-- a row in origin_visit_stats. The SQLite version is originStatsReplace.sql plus
-- visitStatsReplace.sql. Written in key order, and again after a deadlock, as in
-- visitStatsUpsert.sql.
WITH given AS (
  SELECT url, visit_type, to_timestamp(last_successful_ms / 1000.0) AS last_successful,
         to_timestamp(last_visit_ms / 1000.0) AS last_visit, last_visit_status,
         to_timestamp(last_scheduled_ms / 1000.0) AS last_scheduled, last_snapshot, next_visit_queue_position,
         next_position_offset, successive_visits, position
  FROM unnest(:urls::text[], :visit_types::text[], :last_successful_ms::bigint[], :last_visit_ms::bigint[],
              :last_visit_statuses::text[], :last_scheduled_ms::bigint[], :last_snapshots::text[],
              :next_visit_queue_positions::bigint[], :next_position_offsets::integer[], :successive_visits::integer[])
         WITH ORDINALITY
         AS g (url, visit_type, last_successful_ms, last_visit_ms, last_visit_status, last_scheduled_ms,
               last_snapshot, next_visit_queue_position, next_position_offset, successive_visits, position)
  ORDER BY url, visit_type
), listed AS (
  -- Found by url and visit type, as in visitStatsUpsert.sql.
  UPDATE listed_origin AS lo
  SET last_scheduled = g.last_scheduled,
      last_visit = g.last_visit,
      last_visit_status = g.last_visit_status,
      last_successful = g.last_successful,
      last_snapshot = g.last_snapshot,
      next_visit_queue_position = g.next_visit_queue_position,
      next_position_offset = g.next_position_offset,
      successive_visits = g.successive_visits,
      -- Awaiting a visit while it is scheduled and not visited since (see V016), by the same rule
      -- as in visitStatsUpsert.sql.
      awaiting_visit_since = CASE WHEN g.last_scheduled IS NOT NULL
                                   AND (g.last_visit IS NULL OR g.last_visit <= g.last_scheduled)
                                   AND (lo.awaiting_visit_since = g.last_scheduled
                                     OR ((lo.last_scheduled IS NULL OR lo.last_scheduled < g.last_scheduled)
                                         AND g.last_scheduled > :awaiting_after))
                                  THEN g.last_scheduled END,
      -- Out of the grab indexes while a failed or not-found visit's cooldown may hold (see V018), by
      -- the same rule as in visitStatsUpsert.sql.
      cooling_since = CASE WHEN g.last_visit_status IN ('failed', 'not_found')
                            AND lo.last_visit IS NOT DISTINCT FROM g.last_visit
                            AND lo.last_visit_status IS NOT DISTINCT FROM g.last_visit_status
                           THEN lo.cooling_since
                           WHEN (g.last_visit_status = 'failed' AND g.last_visit > :failed_cooling_after)
                             OR (g.last_visit_status = 'not_found' AND g.last_visit > :not_found_cooling_after)
                           THEN g.last_visit
                      END
  FROM given AS g
  WHERE lo.url = g.url
    AND lo.visit_type = g.visit_type
  RETURNING g.position
)
INSERT INTO origin_visit_stats AS s (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                     last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
SELECT url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled, last_snapshot,
       next_visit_queue_position, next_position_offset, successive_visits
FROM given
-- The urls no lister lists.
WHERE position NOT IN (SELECT position FROM listed)
ORDER BY url, visit_type
ON CONFLICT (url, visit_type) DO UPDATE
SET last_successful = excluded.last_successful,
    last_visit = excluded.last_visit,
    last_visit_status = excluded.last_visit_status,
    last_scheduled = excluded.last_scheduled,
    last_snapshot = excluded.last_snapshot,
    next_visit_queue_position = excluded.next_visit_queue_position,
    next_position_offset = excluded.next_position_offset,
    successive_visits = excluded.successive_visits
