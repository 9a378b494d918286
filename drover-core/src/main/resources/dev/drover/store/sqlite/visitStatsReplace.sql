-- SQLite differs: one row per execution in a JDBC batch, after originStatsReplace.sql has
-- written the listed urls' rows; PostgreSQL writes the whole batch in one statement.
-- Writes the stats of a url no lister lists exactly as given, NULLs included (the explicit reset;
-- visit results use it too, having computed every field). V029: a listed url's stats are its
-- listed rows. "WHERE" is also SQLite's required disambiguation of an upsert from a SELECT.
INSERT INTO origin_visit_stats (url, visit_type, last_successful, last_visit, last_visit_status, last_scheduled,
                                last_snapshot, next_visit_queue_position, next_position_offset, successive_visits)
SELECT :url, :visit_type, :last_successful, :last_visit, :last_visit_status, :last_scheduled,
       :last_snapshot, :next_visit_queue_position, :next_position_offset, :successive_visits
WHERE NOT EXISTS (SELECT 1 FROM listed_origin WHERE url = :url AND visit_type = :visit_type)
ON CONFLICT (url, visit_type) DO UPDATE
SET last_successful = excluded.last_successful,
    last_visit = excluded.last_visit,
    last_visit_status = excluded.last_visit_status,
    last_scheduled = excluded.last_scheduled,
    last_snapshot = excluded.last_snapshot,
    next_visit_queue_position = excluded.next_visit_queue_position,
    next_position_offset = excluded.next_position_offset,
    successive_visits = excluded.successive_visits
