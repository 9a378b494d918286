-- SQLite only: PostgreSQL refreshes the mirror inside its visitStatsUpsert and
-- visitStatsReplace statements; SQLite runs this after each per-row batch of them.
-- Copies the visit stats of some urls of one visit type into the mirror columns of every
-- listed_origin row of those urls, whichever lister listed them (see V006__frontier.sql). Rows
-- already equal are not rewritten. Served by origin_visit_stats' primary key and
-- listed_origin_by_url.
UPDATE listed_origin
SET last_scheduled = s.last_scheduled,
    last_visit = s.last_visit,
    last_visit_status = s.last_visit_status,
    last_successful = s.last_successful,
    last_snapshot = s.last_snapshot,
    next_visit_queue_position = s.next_visit_queue_position,
    -- Awaiting a visit while it is scheduled and not visited since (see V016), by the rule that
    -- PostgreSQL's visitStatsUpsert.sql explains.
    awaiting_visit_since = CASE WHEN s.last_scheduled IS NOT NULL
                                 AND (s.last_visit IS NULL OR s.last_visit <= s.last_scheduled)
                                 AND (listed_origin.awaiting_visit_since = s.last_scheduled
                                   OR ((listed_origin.last_scheduled IS NULL OR listed_origin.last_scheduled < s.last_scheduled)
                                       AND s.last_scheduled > :awaiting_after))
                                THEN s.last_scheduled END,
    -- Out of the grab indexes while a failed or not-found visit's cooldown may hold (see V018), by
    -- the rule that PostgreSQL's visitStatsUpsert.sql explains.
    cooling_since = CASE WHEN s.last_visit_status IN ('failed', 'not_found')
                          AND listed_origin.last_visit IS NOT DISTINCT FROM s.last_visit
                          AND listed_origin.last_visit_status IS NOT DISTINCT FROM s.last_visit_status
                         THEN listed_origin.cooling_since
                         WHEN (s.last_visit_status = 'failed' AND s.last_visit > :failed_cooling_after)
                           OR (s.last_visit_status = 'not_found' AND s.last_visit > :not_found_cooling_after)
                         THEN s.last_visit
                    END
FROM origin_visit_stats s
WHERE s.visit_type = :visit_type
  AND s.url IN (<urls>)
  AND listed_origin.url = s.url
  AND listed_origin.visit_type = s.visit_type
  AND (listed_origin.last_scheduled IS DISTINCT FROM s.last_scheduled
    OR listed_origin.last_visit IS DISTINCT FROM s.last_visit
    OR listed_origin.last_visit_status IS DISTINCT FROM s.last_visit_status
    OR listed_origin.last_successful IS DISTINCT FROM s.last_successful
    OR listed_origin.last_snapshot IS DISTINCT FROM s.last_snapshot
    OR listed_origin.next_visit_queue_position IS DISTINCT FROM s.next_visit_queue_position)
