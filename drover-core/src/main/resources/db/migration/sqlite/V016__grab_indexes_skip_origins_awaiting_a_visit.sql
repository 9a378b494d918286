-- As PostgreSQL's V016: an origin handed out by a grab and not yet visited (scheduled, and no
-- visit result since) leaves every grab policy's index, and listed_origin_awaiting_visit holds it
-- until its visit reports back. Later grabs of a policy whose order the mark does not change then
-- never read past the origins earlier grabs handed out. SQLite updates a partial index whenever a
-- column of its predicate changes, so a mark removes the row's entries from the grab indexes and
-- adds one here. The grab's SQL repeats each clause word for word: SQLite uses a partial index
-- only when the query's WHERE contains every term of the index's.
DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled)
  WHERE (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update, first_seen)
  WHERE last_visit_status IS DISTINCT FROM 'successful'
    AND (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_never_visited;
CREATE INDEX listed_origin_grab_never_visited
  ON listed_origin (visit_type, enabled, last_update)
  WHERE last_snapshot IS NULL AND last_update IS NOT NULL
    AND (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_by_lag;
CREATE INDEX listed_origin_grab_by_lag
  ON listed_origin (visit_type, enabled, (last_update - last_successful) DESC)
  WHERE last_snapshot IS NOT NULL AND last_update > last_successful
    AND (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_without_last_update;
CREATE INDEX listed_origin_grab_without_last_update
  ON listed_origin (visit_type, enabled, next_visit_queue_position, first_seen)
  WHERE last_update IS NULL
    AND (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled)
  WHERE (last_scheduled IS NULL OR last_scheduled < last_visit);

CREATE INDEX listed_origin_awaiting_visit
  ON listed_origin (visit_type, enabled, last_scheduled)
  WHERE last_scheduled IS NOT NULL AND (last_visit IS NULL OR last_scheduled >= last_visit);
