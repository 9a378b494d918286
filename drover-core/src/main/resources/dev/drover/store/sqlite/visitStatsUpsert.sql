-- SQLite differs: one row per execution in a JDBC batch, after originStatsUpsert.sql has
-- written the listed urls' rows; PostgreSQL writes the whole batch in one statement.
-- Merges the stats of a url no lister lists (V029: a listed url's stats are its listed rows): a
-- NULL never erases a stored value; the offset and successive visits have no NULL, so they are
-- always written. "WHERE" is also SQLite's required disambiguation of an upsert from a SELECT.
INSERT INTO origin_visit_stats (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
SELECT :url, :visit_type, :last_successful, :last_visit, :last_visit_status, :last_scheduled,
       :last_snapshot, :next_visit_queue_position, :next_position_offset, :successive_visits
WHERE NOT EXISTS (SELECT 1 FROM listed_origin WHERE url = :url AND visit_type = :visit_type)
ON CONFLICT (url, visit_type) DO UPDATE
SET last_successful = COALESCE(excluded.last_successful, origin_visit_stats.last_successful),
    last_visit = COALESCE(excluded.last_visit, origin_visit_stats.last_visit),
    last_visit_status = COALESCE(excluded.last_visit_status, origin_visit_stats.last_visit_status),
    last_scheduled = COALESCE(excluded.last_scheduled, origin_visit_stats.last_scheduled),
    last_snapshot = COALESCE(excluded.last_snapshot, origin_visit_stats.last_snapshot),
    next_visit_queue_position = COALESCE(excluded.next_visit_queue_position,
                                         origin_visit_stats.next_visit_queue_position),
    next_position_offset = excluded.next_position_offset,
    successive_visits = excluded.successive_visits
