-- As PostgreSQL's V016 (whose comment gives the rules): an origin handed out by a grab leaves
-- every grab policy's index until its visit reports back or a grab finds its cooldowns over, so
-- later grabs of a policy whose order the mark does not change never read past it.
ALTER TABLE listed_origin ADD COLUMN awaiting_visit_since INTEGER;

DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled)
  WHERE awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update, first_seen)
  WHERE last_visit_status IS DISTINCT FROM 'successful' AND awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_never_visited;
CREATE INDEX listed_origin_grab_never_visited
  ON listed_origin (visit_type, enabled, last_update)
  WHERE last_snapshot IS NULL AND last_update IS NOT NULL AND awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_by_lag;
CREATE INDEX listed_origin_grab_by_lag
  ON listed_origin (visit_type, enabled, (last_update - last_successful) DESC)
  WHERE last_snapshot IS NOT NULL AND last_update > last_successful AND awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_without_last_update;
CREATE INDEX listed_origin_grab_without_last_update
  ON listed_origin (visit_type, enabled, next_visit_queue_position, first_seen)
  WHERE last_update IS NULL AND awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled)
  WHERE awaiting_visit_since IS NULL;

CREATE INDEX listed_origin_awaiting_visit
  ON listed_origin (visit_type, awaiting_visit_since)
  WHERE awaiting_visit_since IS NOT NULL;
