-- PostgreSQL differs: the batch as arrays in one statement, listed and unlisted urls together.
-- Merges a batch of stats in one statement (the batch as parallel arrays, keys distinct; times in
-- epoch milliseconds): a NULL never erases a stored value; the offset and successive visits have
-- no NULL, so they are always written. A listed url's stats are its listed_origin rows, every
-- lister's (V028), updated in place; only the urls no lister lists have a row in
-- origin_visit_stats. The SQLite version is originStatsUpsert.sql plus visitStatsUpsert.sql.
-- Stats writers run together (VisitTypeLocks), and the batch is written in key order, so that two
-- writers of the same urls mostly queue on their first common row. The order is the plan's (a
-- nested loop from the sorted batch), which PostgreSQL does not promise, and the rows of one url
-- come in the url index's order, so two such writers can still deadlock: the store writes the
-- batch again (DeadlockRetry). Locking the rows in key order first, in a statement of its own,
-- cost a row lock (one WAL record) and a second lookup per row (docs/benchmarks.md).
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
  -- Each listed row of the batch's urls, found by url and visit type: a row another writer changed
  -- while this one waited for it is found again at its new version (READ COMMITTED).
  UPDATE listed_origin AS lo
  SET last_scheduled = COALESCE(g.last_scheduled, lo.last_scheduled),
      last_visit = COALESCE(g.last_visit, lo.last_visit),
      last_visit_status = COALESCE(g.last_visit_status, lo.last_visit_status),
      last_successful = COALESCE(g.last_successful, lo.last_successful),
      last_snapshot = COALESCE(g.last_snapshot, lo.last_snapshot),
      next_visit_queue_position = COALESCE(g.next_visit_queue_position, lo.next_visit_queue_position),
      next_position_offset = g.next_position_offset,
      successive_visits = g.successive_visits,
      -- Awaiting a visit while it is scheduled and not visited since (see V016): kept while it
      -- awaits the same scheduling, and set, as a grab's mark sets it, when the stats bring a later
      -- scheduling that the default cooldowns still hold (later than :awaiting_after, the write's
      -- time less the default scheduled cooldown; stats written directly, such as an import), so
      -- that the grab indexes hold none of these either and a grab puts each back once its
      -- cooldowns have ended. An older scheduling (a visit lost weeks ago) stays: the next grab
      -- would put it back at once, all of an import's in one statement.
      awaiting_visit_since =
        CASE WHEN COALESCE(g.last_scheduled, lo.last_scheduled) IS NOT NULL
              AND (COALESCE(g.last_visit, lo.last_visit) IS NULL
                OR COALESCE(g.last_visit, lo.last_visit) <= COALESCE(g.last_scheduled, lo.last_scheduled))
              AND (lo.awaiting_visit_since = COALESCE(g.last_scheduled, lo.last_scheduled)
                OR ((lo.last_scheduled IS NULL OR lo.last_scheduled < COALESCE(g.last_scheduled, lo.last_scheduled))
                    AND COALESCE(g.last_scheduled, lo.last_scheduled) > :awaiting_after))
             THEN COALESCE(g.last_scheduled, lo.last_scheduled) END,
      -- Out of the grab indexes while a failed or not-found visit's cooldown may hold (see V018):
      -- kept while the visit result stays the same, and set by a new visit result of those
      -- statuses that the default cooldown of its status still holds (later than
      -- :failed_cooling_after or :not_found_cooling_after, the write's time less that cooldown).
      -- An older one stays in the grab indexes, as an older scheduling does above: an import's
      -- old failures would otherwise all go back at the next grab, in one statement.
      cooling_since =
        CASE WHEN COALESCE(g.last_visit_status, lo.last_visit_status) IN ('failed', 'not_found')
              AND lo.last_visit IS NOT DISTINCT FROM COALESCE(g.last_visit, lo.last_visit)
              AND lo.last_visit_status IS NOT DISTINCT FROM COALESCE(g.last_visit_status, lo.last_visit_status)
             THEN lo.cooling_since
             WHEN (COALESCE(g.last_visit_status, lo.last_visit_status) = 'failed'
                   AND COALESCE(g.last_visit, lo.last_visit) > :failed_cooling_after)
               OR (COALESCE(g.last_visit_status, lo.last_visit_status) = 'not_found'
                   AND COALESCE(g.last_visit, lo.last_visit) > :not_found_cooling_after)
             THEN COALESCE(g.last_visit, lo.last_visit)
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
SET last_successful = COALESCE(excluded.last_successful, s.last_successful),
    last_visit = COALESCE(excluded.last_visit, s.last_visit),
    last_visit_status = COALESCE(excluded.last_visit_status, s.last_visit_status),
    last_scheduled = COALESCE(excluded.last_scheduled, s.last_scheduled),
    last_snapshot = COALESCE(excluded.last_snapshot, s.last_snapshot),
    next_visit_queue_position = COALESCE(excluded.next_visit_queue_position, s.next_visit_queue_position),
    next_position_offset = excluded.next_position_offset,
    successive_visits = excluded.successive_visits
