-- SQLite only: PostgreSQL deletes them in its originRecordWithoutConflict.sql.
-- After a recording's batch: a url it listed for the first time has taken its stats out of
-- origin_visit_stats (originRecord.sql, V029), so its stats row goes. Any other url of the batch
-- was listed already and has none. One row per execution in a JDBC batch; served by the primary
-- key.
DELETE FROM origin_visit_stats
WHERE url = :url
  AND visit_type = :visit_type
