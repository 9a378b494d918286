-- PostgreSQL differs: the batch as arrays in one statement, the mirror refreshed in it.
-- Writes a batch of stats exactly as given, NULLs included, in one statement (the batch as
-- parallel arrays, keys distinct; times in epoch milliseconds) and refreshes their mirror in
-- listed_origin (see V006__frontier.sql). The SQLite version is visitStatsReplace.sql plus
-- originMirrorRefresh.sql.
WITH given AS (
  SELECT *
  FROM unnest(:urls::text[], :visit_types::text[], :last_successful_ms::bigint[], :last_visit_ms::bigint[],
              :last_visit_statuses::text[], :last_scheduled_ms::bigint[], :last_snapshots::text[],
              :next_visit_queue_positions::bigint[], :next_position_offsets::integer[], :successive_visits::integer[])
         AS g (url, visit_type, last_successful_ms, last_visit_ms, last_visit_status, last_scheduled_ms,
               last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
), written AS (
  INSERT INTO origin_visit_stats AS s (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                       last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
  SELECT url, visit_type, to_timestamp(last_successful_ms / 1000.0), to_timestamp(last_visit_ms / 1000.0),
         last_visit_status, to_timestamp(last_scheduled_ms / 1000.0), last_snapshot, next_visit_queue_position,
         next_position_offset, successive_visits
  FROM given
  -- In key order: stats writers run together (VisitTypeLocks), and two that write the same keys
  -- then wait for each other in one order instead of deadlocking.
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
  RETURNING s.*
)
-- The mirror of every listed_origin row of the written urls, whichever lister listed them; rows
-- already equal are not rewritten. Served by listed_origin_by_url.
UPDATE listed_origin AS lo
SET last_scheduled = w.last_scheduled,
    last_visit = w.last_visit,
    last_visit_status = w.last_visit_status,
    last_successful = w.last_successful,
    last_snapshot = w.last_snapshot,
    next_visit_queue_position = w.next_visit_queue_position,
    -- Awaiting a visit while it is scheduled and not visited since (see V016), by the same rule as
    -- in visitStatsUpsert.sql.
    awaiting_visit_since = CASE WHEN w.last_scheduled IS NOT NULL
                                 AND (w.last_visit IS NULL OR w.last_visit <= w.last_scheduled)
                                 AND (lo.awaiting_visit_since = w.last_scheduled
                                   OR ((lo.last_scheduled IS NULL OR lo.last_scheduled < w.last_scheduled)
                                       AND w.last_scheduled > :awaiting_after))
                                THEN w.last_scheduled END,
    -- Out of the grab indexes while a failed or not-found visit's cooldown may hold (see V018): set
    -- by a new visit result of those statuses, kept while the visit result stays the same.
    cooling_since = CASE WHEN w.last_visit_status IN ('failed', 'not_found')
                         THEN CASE WHEN lo.last_visit IS NOT DISTINCT FROM w.last_visit
                                    AND lo.last_visit_status IS NOT DISTINCT FROM w.last_visit_status
                                   THEN lo.cooling_since
                                   ELSE w.last_visit END
                    END
FROM written AS w
WHERE lo.url = w.url
  AND lo.visit_type = w.visit_type
  AND (lo.last_scheduled IS DISTINCT FROM w.last_scheduled
    OR lo.last_visit IS DISTINCT FROM w.last_visit
    OR lo.last_visit_status IS DISTINCT FROM w.last_visit_status
    OR lo.last_successful IS DISTINCT FROM w.last_successful
    OR lo.last_snapshot IS DISTINCT FROM w.last_snapshot
    OR lo.next_visit_queue_position IS DISTINCT FROM w.next_visit_queue_position)
