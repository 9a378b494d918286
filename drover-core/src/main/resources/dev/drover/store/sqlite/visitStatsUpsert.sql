-- SQLite differs: one row per execution in a JDBC batch, then originMirrorRefresh.sql;
-- PostgreSQL writes the batch and the mirror in one statement.
-- Merges stats: a NULL never erases a stored value. The offset and successive visits have no
-- NULL, so they are always written.
INSERT INTO origin_visit_stats (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
VALUES (:url, :visit_type, :last_successful, :last_visit, :last_visit_status, :last_scheduled,
        :last_snapshot, :next_visit_queue_position, :next_position_offset, :successive_visits)
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
