-- PostgreSQL differs: the whole batch as arrays in one statement, one round trip
-- however large; SQLite records an origin per execution. On PostgreSQL this upsert takes the
-- batches too large for originRecordWithoutConflict.sql (PostgresSql.recordOrigins).
-- Records a whole batch of listed origins in one statement: the batch arrives as parallel arrays
-- (one element per origin, keys distinct), so a batch costs one round trip and one plan however
-- large it is. Times are epoch milliseconds. Only what the batch does not already say comes back,
-- by the origin's position in the batch: the row's first_seen and its extra loader arguments as
-- jsonb holds them (PostgresSql builds the stored rows from these and the batch).
-- A new row takes its url's visit stats (another lister's row of the url, else the url's row in
-- origin_visit_stats, which moves into it: V028), and with them whether it awaits a visit (V016; a
-- scheduling later than :awaiting_after, :now less the default scheduled cooldown, as in
-- visitStatsUpsert.sql) or cools after a failed one (V018; a failure its status's default
-- cooldown still holds, also as in visitStatsUpsert.sql). A known row's stats are current, since
-- every stats write updates them, so the update leaves them alone. first_seen is written once;
-- everything the lister says is overwritten (enabled too, so a listing enables an origin that was
-- disabled), last_seen moves.
WITH given AS (
  SELECT *
  FROM unnest(:lister_ids::text[], :urls::text[], :visit_types::text[], :extra_loader_arguments::text[],
              :enabled::boolean[], :last_update_ms::bigint[], :is_fork::boolean[], :forked_from_urls::text[])
         WITH ORDINALITY
         AS o (lister_id, url, visit_type, extra_loader_arguments, enabled, last_update_ms, is_fork, forked_from_url,
               position)
), inserted AS (
  INSERT INTO listed_origin (lister_id, url, visit_type, extra_loader_arguments, enabled, first_seen, last_seen,
                             last_update, is_fork, forked_from_url, last_scheduled, last_visit, last_visit_status,
                             last_successful, last_snapshot, next_visit_queue_position, next_position_offset,
                             successive_visits, cooling_since, awaiting_visit_since)
  SELECT o.lister_id::uuid, o.url, o.visit_type, o.extra_loader_arguments::jsonb, o.enabled, :now, :now,
         to_timestamp(o.last_update_ms / 1000.0), o.is_fork, o.forked_from_url,
         s.last_scheduled, s.last_visit, s.last_visit_status, s.last_successful, s.last_snapshot,
         s.next_visit_queue_position, s.next_position_offset, s.successive_visits,
         CASE WHEN (s.last_visit_status = 'failed' AND s.last_visit > :failed_cooling_after)
                OR (s.last_visit_status = 'not_found' AND s.last_visit > :not_found_cooling_after)
              THEN s.last_visit END,
         CASE WHEN s.last_scheduled > :awaiting_after
               AND (s.last_visit IS NULL OR s.last_visit <= s.last_scheduled)
              THEN s.last_scheduled END
  FROM given AS o
  -- The url's stats (V028): another lister's row of the url, else the url's stats row, which this
  -- recording then deletes (moved below). A key's stats are in one place, so at most one is found.
  -- They are taken as originRecordWithoutConflict.sql takes them: the row by its row id, found by
  -- a lateral aggregate that always runs once per origin through the url index.
  CROSS JOIN LATERAL (
    SELECT min(x.ctid) FILTER (WHERE x.next_position_offset IS NOT NULL) AS source_id
    FROM listed_origin AS x
    WHERE x.url = o.url
      AND x.visit_type = o.visit_type
  ) AS f
  LEFT JOIN listed_origin AS l ON l.ctid = f.source_id
  LEFT JOIN origin_visit_stats AS v ON v.url = o.url AND v.visit_type = o.visit_type
  CROSS JOIN LATERAL (
    SELECT COALESCE(l.last_scheduled, v.last_scheduled) AS last_scheduled,
           COALESCE(l.last_visit, v.last_visit) AS last_visit,
           COALESCE(l.last_visit_status, v.last_visit_status) AS last_visit_status,
           COALESCE(l.last_successful, v.last_successful) AS last_successful,
           COALESCE(l.last_snapshot, v.last_snapshot) AS last_snapshot,
           COALESCE(l.next_visit_queue_position, v.next_visit_queue_position) AS next_visit_queue_position,
           COALESCE(l.next_position_offset, v.next_position_offset) AS next_position_offset,
           COALESCE(l.successive_visits, v.successive_visits) AS successive_visits
  ) AS s
  -- Rows are written in the primary key's order. No other recording writes them meanwhile:
  -- recordings of one lister take turns (VisitTypeLocks).
  ORDER BY o.lister_id, o.url, o.visit_type
  ON CONFLICT (lister_id, url, visit_type) DO UPDATE
  SET extra_loader_arguments = excluded.extra_loader_arguments,
      enabled = excluded.enabled,
      last_seen = excluded.last_seen,
      last_update = excluded.last_update,
      is_fork = excluded.is_fork,
      forked_from_url = excluded.forked_from_url
  RETURNING lister_id, url, visit_type, first_seen, extra_loader_arguments, next_position_offset
), moving AS (
  -- A url listed for the first time takes its stats out of origin_visit_stats (V028). Its stats
  -- rows are locked in key order before they are deleted: recordings of different listers run
  -- together, and two that list the same urls then wait for each other in one order.
  SELECT v.url, v.visit_type
  FROM origin_visit_stats AS v
  JOIN inserted AS i ON v.url = i.url AND v.visit_type = i.visit_type
  WHERE i.next_position_offset IS NOT NULL
  ORDER BY v.url, v.visit_type
  FOR UPDATE OF v
), moved AS (
  DELETE FROM origin_visit_stats AS v
  USING moving AS m
  WHERE v.url = m.url
    AND v.visit_type = m.visit_type
)
-- RETURNING cannot name the batch's columns, so the positions come from a join on the key.
SELECT g.position, i.first_seen, i.extra_loader_arguments
FROM inserted AS i
JOIN given AS g ON g.lister_id::uuid = i.lister_id AND g.url = i.url AND g.visit_type = i.visit_type
