-- SQLite differs: one origin per execution, in a JDBC batch (in process, no round trip to
-- save); PostgreSQL sends the batch as arrays in one statement.
-- Records one listed origin (SQLite runs in process, so a prepared statement per origin costs no
-- round trip; PostgreSQL records a batch in one statement, see its originRecord.sql).
-- A new row copies its url's visit stats into the mirror columns (see V006__frontier.sql), and
-- with them whether it awaits a visit (V016; a scheduling later than :awaiting_after, :now less the
-- default scheduled cooldown, as in visitStatsUpsert.sql) or cools after a failed one (V018; a
-- failure its status's default cooldown still holds, also as in visitStatsUpsert.sql). A known
-- row's mirror is already current, since every stats write refreshes it, so the update leaves it
-- alone. first_seen is written once; everything the lister says is overwritten
-- (enabled too, so a listing enables an origin that was disabled), last_seen moves.
-- "WHERE true" is SQLite's required disambiguation of an upsert from a SELECT. Returns the row as
-- stored, inserted or updated.
INSERT INTO listed_origin (lister_id, url, visit_type, extra_loader_arguments, enabled, first_seen, last_seen,
                           last_update, is_fork, forked_from_url, last_scheduled, last_visit, last_visit_status,
                           last_successful, last_snapshot, next_visit_queue_position, cooling_since,
                           awaiting_visit_since)
SELECT :lister_id, :url, :visit_type, :extra_loader_arguments, :enabled, :now, :now,
       :last_update, :is_fork, :forked_from_url,
       s.last_scheduled, s.last_visit, s.last_visit_status, s.last_successful, s.last_snapshot,
       s.next_visit_queue_position,
       CASE WHEN (s.last_visit_status = 'failed' AND s.last_visit > :failed_cooling_after)
              OR (s.last_visit_status = 'not_found' AND s.last_visit > :not_found_cooling_after)
            THEN s.last_visit END,
       CASE WHEN s.last_scheduled > :awaiting_after
             AND (s.last_visit IS NULL OR s.last_visit <= s.last_scheduled)
            THEN s.last_scheduled END
FROM (SELECT 1) AS one
LEFT JOIN origin_visit_stats s ON s.url = :url AND s.visit_type = :visit_type
WHERE true
ON CONFLICT (lister_id, url, visit_type) DO UPDATE
SET extra_loader_arguments = excluded.extra_loader_arguments,
    enabled = excluded.enabled,
    last_seen = excluded.last_seen,
    last_update = excluded.last_update,
    is_fork = excluded.is_fork,
    forked_from_url = excluded.forked_from_url
RETURNING *
