-- PostgreSQL only: how a recording writes a batch (PostgresSql.recordOrigins); originRecord.sql,
-- the upsert, takes batches too large for this statement and says what each column takes.
-- Rows already listed take a plain update and the others a plain insert, because ON CONFLICT DO
-- UPDATE costs more on both paths: it locks each listed row before updating it (one more WAL
-- record per row) after looking up visit stats that only a new row uses, and it inserts each new
-- row speculatively (the primary key searched twice, one more WAL record to confirm the row).
-- The lookup finds every row of the batch's keys: recordings of one lister take turns
-- (VisitTypeLocks), and only recordings insert rows, so every such row was committed before this
-- statement began and no other can be inserted or moved while it runs.
-- Only what the batch does not already say comes back, by the origin's position in the batch: a
-- listed row's first_seen (null for a new row, first seen :now) and the extra loader arguments as
-- jsonb holds them. PostgresSql builds the stored rows from these and the batch; every column of
-- every row sent back about ten times the bytes, of values the caller already had.
WITH given AS (
  SELECT *
  FROM unnest(:lister_ids::text[], :urls::text[], :visit_types::text[], :extra_loader_arguments::text[],
              :enabled::boolean[], :last_update_ms::bigint[], :is_fork::boolean[], :forked_from_urls::text[])
         WITH ORDINALITY
         AS o (lister_id, url, visit_type, extra_loader_arguments, enabled, last_update_ms, is_fork, forked_from_url,
               position)
), found AS (
  -- One lookup of the url index per origin finds both its own row, if it is listed already, and a
  -- row of its url that holds the url's stats (V028: every lister's row of a url holds them), by
  -- their row ids. A lateral subquery with aggregates is always run once per origin through the
  -- index, whatever the plan's guess of the batch's size; a join was planned as a hash join over
  -- the whole table once the table's statistics lagged behind its growth.
  SELECT o.*, f.row_id, f.source_id
  FROM given AS o
  CROSS JOIN LATERAL (
    SELECT min(x.ctid) FILTER (WHERE x.lister_id = o.lister_id::uuid) AS row_id,
           min(x.ctid) FILTER (WHERE x.next_position_offset IS NOT NULL) AS source_id
    FROM listed_origin AS x
    WHERE x.url = o.url
      AND x.visit_type = o.visit_type
  ) AS f
), updated AS (
  UPDATE listed_origin AS lo
  SET extra_loader_arguments = o.extra_loader_arguments::jsonb,
      enabled = o.enabled,
      last_seen = :now,
      last_update = to_timestamp(o.last_update_ms / 1000.0),
      is_fork = o.is_fork,
      forked_from_url = o.forked_from_url
  -- Reached by the row id the lookup found. No other recording reaches these rows meanwhile:
  -- recordings of one lister take turns (VisitTypeLocks).
  FROM found AS o
  WHERE lo.ctid = o.row_id
  RETURNING o.position, lo.first_seen, lo.extra_loader_arguments
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
  FROM found AS o
  -- The url's stats (V028): another lister's row of the url, else the url's stats row, which this
  -- recording then deletes (moved below). A key's stats are in one place, so at most one is found.
  LEFT JOIN listed_origin AS l ON l.ctid = o.source_id
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
  WHERE o.row_id IS NULL
  ORDER BY o.lister_id, o.url, o.visit_type
  RETURNING url, visit_type, next_position_offset
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
SELECT position, first_seen, extra_loader_arguments
FROM updated
UNION ALL
-- The new rows: each inserted as found, or the statement fails.
SELECT position, NULL, extra_loader_arguments::jsonb
FROM found
WHERE row_id IS NULL
