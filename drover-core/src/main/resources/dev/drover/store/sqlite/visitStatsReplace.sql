-- SQLite differs: one row per execution in a JDBC batch, then originMirrorRefresh.sql;
-- PostgreSQL writes the batch and the mirror in one statement.
-- Writes stats exactly as given, NULLs included (the explicit reset; visit results use it too,
-- having computed every field).
INSERT INTO origin_visit_stats (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
VALUES (:url, :visit_type, :last_successful, :last_visit, :last_visit_status, :last_scheduled,
        :last_snapshot, :next_visit_queue_position, :next_position_offset, :successive_visits)
ON CONFLICT (url, visit_type) DO UPDATE
SET last_successful = excluded.last_successful,
    last_visit = excluded.last_visit,
    last_visit_status = excluded.last_visit_status,
    last_scheduled = excluded.last_scheduled,
    last_snapshot = excluded.last_snapshot,
    next_visit_queue_position = excluded.next_visit_queue_position,
    next_position_offset = excluded.next_position_offset,
    successive_visits = excluded.successive_visits
