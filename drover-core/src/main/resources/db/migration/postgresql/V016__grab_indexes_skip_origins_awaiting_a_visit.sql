-- An origin handed out by a grab leaves every grab policy's index until its visit reports back
-- (or a grab finds its cooldowns over): awaiting_visit_since holds when it was handed out, and
-- every grab index takes only rows where it is NULL.
--
-- A grab marks what it hands out: last_scheduled becomes now. Before, the marked row stayed in the
-- policy indexes, so the mark wrote the row's new version into all eight indexes of listed_origin
-- (about 9,400 WAL records per grab of 1,000), and every later grab of a policy whose order the
-- mark does not change (stop_after_success, never_visited, by_lag, without_last_update) read past
-- it, a row removed by the scheduled cooldown's filter (65,000 per grab after a few rounds at 1M).
-- Now the mark also sets awaiting_visit_since, the new version matches no grab index's predicate,
-- and PostgreSQL writes it into the primary key, the url index and listed_origin_awaiting_visit
-- only; later grabs never meet it.
--
-- The rules (VisitGrab, visitMarkScheduled.sql, visitStatsUpsert.sql, visitStatsReplace.sql,
-- visitReturnAwaiting.sql):
-- - a grab's mark sets it to now, with last_scheduled, unless a visit result is newer;
-- - a stats write keeps it only while the origin still awaits that same scheduling (last_scheduled
--   unchanged, no visit result at or after it) and clears it otherwise: a visit that reported back
--   puts the row back into the grab indexes it matches;
-- - before choosing, a grab clears it on the rows whose time cooldowns have ended for its request
--   (visits that never reported back; every awaiting row when the request has no time cooldown),
--   found by time in listed_origin_awaiting_visit, so that the choice takes them in order.
-- So it is set only while an origin awaits its visit, and then equals last_scheduled: only the
-- absolute and scheduled cooldowns keep such an origin from being chosen, and a grab returns it to
-- the indexes as soon as its own request's thresholds allow. Clearing it is always safe, since the
-- grab's cooldown filters still apply to every row a grab index holds. Stats written directly (an
-- import, the bench's load) never set it.
ALTER TABLE listed_origin ADD COLUMN awaiting_visit_since timestamptz;

DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled ASC NULLS FIRST)
  WHERE awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update ASC NULLS LAST, first_seen)
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
  ON listed_origin (visit_type, enabled, next_visit_queue_position ASC NULLS FIRST, first_seen)
  WHERE last_update IS NULL AND awaiting_visit_since IS NULL;

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled ASC NULLS FIRST)
  WHERE awaiting_visit_since IS NULL;

-- The origins awaiting a visit, oldest first: a grab finds the ones whose cooldowns have ended
-- with one range read. A mark's entry lands at the right end (it writes now). It holds about a
-- visit queue's worth of origins, plus visits that never reported back within the cooldown.
CREATE INDEX listed_origin_awaiting_visit
  ON listed_origin (visit_type, awaiting_visit_since)
  WHERE awaiting_visit_since IS NOT NULL;
