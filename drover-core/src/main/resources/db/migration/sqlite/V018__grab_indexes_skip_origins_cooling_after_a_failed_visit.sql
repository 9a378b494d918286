-- An origin whose last visit failed or found nothing leaves every grab index while that visit's
-- cooldown may still hold (cooling_since, its last_visit); a grab first puts back the ones whose
-- cooldown has ended for its request. The PostgreSQL migration V018 gives the rules and the
-- reason; times here are epoch milliseconds, as in every SQLite time column.
ALTER TABLE listed_origin ADD COLUMN cooling_since INTEGER;

-- Only visits of the last 31 days start out cooling (see the PostgreSQL migration).
UPDATE listed_origin
SET cooling_since = last_visit
WHERE last_visit_status IN ('failed', 'not_found')
  AND last_visit > (unixepoch('now') - 31 * 86400) * 1000;

DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled)
  WHERE awaiting_visit_since IS NULL AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update, first_seen)
  WHERE last_visit_status IS DISTINCT FROM 'successful' AND awaiting_visit_since IS NULL
    AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_never_visited;
CREATE INDEX listed_origin_grab_never_visited
  ON listed_origin (visit_type, enabled, last_update)
  WHERE last_snapshot IS NULL AND last_update IS NOT NULL AND awaiting_visit_since IS NULL
    AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_by_lag;
CREATE INDEX listed_origin_grab_by_lag
  ON listed_origin (visit_type, enabled, (last_update - last_successful) DESC)
  WHERE last_snapshot IS NOT NULL AND last_update > last_successful AND awaiting_visit_since IS NULL
    AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_without_last_update;
CREATE INDEX listed_origin_grab_without_last_update
  ON listed_origin (visit_type, enabled, next_visit_queue_position, first_seen)
  WHERE last_update IS NULL AND awaiting_visit_since IS NULL AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled)
  WHERE awaiting_visit_since IS NULL AND cooling_since IS NULL;

-- The origins cooling after a failed or not-found visit, by status and oldest visit first: a grab
-- finds the ones whose cooldown has ended with one range read per status.
CREATE INDEX listed_origin_cooling
  ON listed_origin (visit_type, last_visit_status, cooling_since)
  WHERE cooling_since IS NOT NULL;
