-- SQLite only: PostgreSQL's visitStatsUpsert.sql writes the listed and the unlisted urls in one
-- statement, and explains each column below; SQLite runs this per row of a JDBC batch, then
-- visitStatsUpsert.sql for the urls no lister lists.
-- Merges one url's stats into every lister's row of it (V029): a NULL never erases a stored value;
-- the offset and successive visits have no NULL, so they are always written. Served by
-- listed_origin_by_url.
WITH g AS (
  SELECT :url AS url, :visit_type AS visit_type, :last_successful AS last_successful, :last_visit AS last_visit,
         :last_visit_status AS last_visit_status, :last_scheduled AS last_scheduled, :last_snapshot AS last_snapshot,
         :next_visit_queue_position AS next_visit_queue_position, :next_position_offset AS next_position_offset,
         :successive_visits AS successive_visits
)
UPDATE listed_origin AS lo
SET last_scheduled = COALESCE(g.last_scheduled, lo.last_scheduled),
    last_visit = COALESCE(g.last_visit, lo.last_visit),
    last_visit_status = COALESCE(g.last_visit_status, lo.last_visit_status),
    last_successful = COALESCE(g.last_successful, lo.last_successful),
    last_snapshot = COALESCE(g.last_snapshot, lo.last_snapshot),
    next_visit_queue_position = COALESCE(g.next_visit_queue_position, lo.next_visit_queue_position),
    next_position_offset = g.next_position_offset,
    successive_visits = g.successive_visits,
    -- Awaiting a visit while it is scheduled and not visited since (see V016).
    awaiting_visit_since =
      CASE WHEN COALESCE(g.last_scheduled, lo.last_scheduled) IS NOT NULL
            AND (COALESCE(g.last_visit, lo.last_visit) IS NULL
              OR COALESCE(g.last_visit, lo.last_visit) <= COALESCE(g.last_scheduled, lo.last_scheduled))
            AND (lo.awaiting_visit_since = COALESCE(g.last_scheduled, lo.last_scheduled)
              OR ((lo.last_scheduled IS NULL OR lo.last_scheduled < COALESCE(g.last_scheduled, lo.last_scheduled))
                  AND COALESCE(g.last_scheduled, lo.last_scheduled) > :awaiting_after))
           THEN COALESCE(g.last_scheduled, lo.last_scheduled) END,
    -- Out of the grab indexes while a failed or not-found visit's cooldown may hold (see V018).
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
FROM g
WHERE lo.url = g.url
  AND lo.visit_type = g.visit_type
