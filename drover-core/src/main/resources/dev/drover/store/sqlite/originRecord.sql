-- SQLite differs: one origin per execution, in a JDBC batch (in process, no round trip to
-- save), and originStatsMoved.sql deletes the stats rows a recording moved; PostgreSQL sends the
-- batch as arrays in one statement.
-- Records one listed origin. A new row takes its url's visit stats (V029): from another lister's
-- row of the url if one holds them, else from the url's row of origin_visit_stats, which the
-- recording then deletes (a key's stats are in one place, so at most one source is found, though
-- several listers' rows may hold it). With them it takes whether it awaits a visit (V016; a
-- scheduling later than :awaiting_after, :now less the default scheduled cooldown, as in
-- originStatsUpsert.sql) or cools after a failed one (V018; a failure its status's default
-- cooldown still holds, also as there). A known row's stats are already current, since every
-- stats write updates them, so the update leaves them alone. first_seen is written once;
-- everything the lister says is overwritten (enabled too, so a listing enables an origin that was
-- disabled), last_seen moves. "WHERE true" is SQLite's required disambiguation of an upsert from
-- a SELECT. Returns the row as stored, inserted or updated.
INSERT INTO listed_origin (lister_id, url, visit_type, extra_loader_arguments, enabled, first_seen, last_seen,
                           last_update, is_fork, forked_from_url, last_scheduled, last_visit, last_visit_status,
                           last_successful, last_snapshot, next_visit_queue_position, next_position_offset,
                           successive_visits, cooling_since, awaiting_visit_since)
SELECT :lister_id, :url, :visit_type, :extra_loader_arguments, :enabled, :now, :now,
       :last_update, :is_fork, :forked_from_url,
       s.last_scheduled, s.last_visit, s.last_visit_status, s.last_successful, s.last_snapshot,
       s.next_visit_queue_position, s.next_position_offset, s.successive_visits,
       CASE WHEN (s.last_visit_status = 'failed' AND s.last_visit > :failed_cooling_after)
              OR (s.last_visit_status = 'not_found' AND s.last_visit > :not_found_cooling_after)
            THEN s.last_visit END,
       CASE WHEN s.last_scheduled > :awaiting_after
             AND (s.last_visit IS NULL OR s.last_visit <= s.last_scheduled)
            THEN s.last_scheduled END
FROM (SELECT 1) AS one
LEFT JOIN (
  SELECT last_scheduled, last_visit, last_visit_status, last_successful, last_snapshot, next_visit_queue_position,
         next_position_offset, successive_visits
  FROM listed_origin
  WHERE url = :url
    AND visit_type = :visit_type
    AND next_position_offset IS NOT NULL
  UNION ALL
  SELECT last_scheduled, last_visit, last_visit_status, last_successful, last_snapshot, next_visit_queue_position,
         next_position_offset, successive_visits
  FROM origin_visit_stats
  WHERE url = :url
    AND visit_type = :visit_type
  LIMIT 1
) AS s ON true
WHERE true
ON CONFLICT (lister_id, url, visit_type) DO UPDATE
SET extra_loader_arguments = excluded.extra_loader_arguments,
    enabled = excluded.enabled,
    last_seen = excluded.last_seen,
    last_update = excluded.last_update,
    is_fork = excluded.is_fork,
    forked_from_url = excluded.forked_from_url
RETURNING *
