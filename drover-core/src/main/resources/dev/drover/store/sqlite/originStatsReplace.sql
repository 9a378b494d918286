-- SQLite only: PostgreSQL's visitStatsReplace.sql writes the listed and the unlisted urls in one
-- statement; SQLite runs this per row of a JDBC batch, then visitStatsReplace.sql for the urls no
-- lister lists.
-- Writes one url's stats exactly as given, NULLs included, into every lister's row of it (V029),
-- with the awaiting and cooling rules of originStatsUpsert.sql. Served by
-- listed_origin_by_url.
WITH g AS (
  SELECT :url AS url, :visit_type AS visit_type, :last_successful AS last_successful, :last_visit AS last_visit,
         :last_visit_status AS last_visit_status, :last_scheduled AS last_scheduled, :last_snapshot AS last_snapshot,
         :next_visit_queue_position AS next_visit_queue_position, :next_position_offset AS next_position_offset,
         :successive_visits AS successive_visits
)
UPDATE listed_origin AS lo
SET last_scheduled = g.last_scheduled,
    last_visit = g.last_visit,
    last_visit_status = g.last_visit_status,
    last_successful = g.last_successful,
    last_snapshot = g.last_snapshot,
    next_visit_queue_position = g.next_visit_queue_position,
    next_position_offset = g.next_position_offset,
    successive_visits = g.successive_visits,
    awaiting_visit_since = CASE WHEN g.last_scheduled IS NOT NULL
                                 AND (g.last_visit IS NULL OR g.last_visit <= g.last_scheduled)
                                 AND (lo.awaiting_visit_since = g.last_scheduled
                                   OR ((lo.last_scheduled IS NULL OR lo.last_scheduled < g.last_scheduled)
                                       AND g.last_scheduled > :awaiting_after))
                                THEN g.last_scheduled END,
    cooling_since = CASE WHEN g.last_visit_status IN ('failed', 'not_found')
                          AND lo.last_visit IS NOT DISTINCT FROM g.last_visit
                          AND lo.last_visit_status IS NOT DISTINCT FROM g.last_visit_status
                         THEN lo.cooling_since
                         WHEN (g.last_visit_status = 'failed' AND g.last_visit > :failed_cooling_after)
                           OR (g.last_visit_status = 'not_found' AND g.last_visit > :not_found_cooling_after)
                         THEN g.last_visit
                    END
FROM g
WHERE lo.url = g.url
  AND lo.visit_type = g.visit_type
