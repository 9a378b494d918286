-- An origin whose last visit failed or found nothing leaves every grab policy's index while that
-- visit's cooldown may still hold: cooling_since holds when that visit ended (its last_visit), and
-- every grab index takes only rows where it is NULL, as V016 does for origins handed out.
--
-- The failed and not-found cooldowns keep such an origin from being chosen for 14 and 31 days by
-- default, but it kept its place at the front of the policies' orders that do not depend on visits
-- (stop_after_success and never_visited follow the forge's update time, without_last_update the
-- queue position): every grab read past all of them and removed each by the cooldown's filter,
-- reading its row from the heap (21,000 rows and 25,000 buffers per grab on the bench's 1M
-- frontier, where a tenth of the visits failed; the visit scheduler's choices were a fifth of its
-- server time).
--
-- The rules (visitStatsUpsert.sql, visitStatsReplace.sql, originRecord.sql, visitReturnCooled.sql):
-- - a stats write that brings a new visit result sets it to that visit's end when its status is
--   failed or not_found, and clears it otherwise; a stats write that leaves the visit result as it
--   was leaves it as it was;
-- - a new listed origin takes it from its url's stats in the same way;
-- - before choosing, a grab clears it on the rows whose failed or not-found cooldown has ended for
--   its own request (every such row of the visit type when the request has that cooldown off),
--   found by status and time in listed_origin_cooling, so that the choice takes them in order.
-- Clearing it is always safe: the grab's cooldown filters still apply to every row a grab index
-- holds. So the choice reads only the origins its request may take, and a grab's own filters keep
-- their exact meaning.
ALTER TABLE listed_origin ADD COLUMN cooling_since timestamptz;

-- Only visits of the last 31 days (the longest default cooldown, not_found's) start out cooling:
-- an older one is past every default cooldown, and the first grab would have to put each back at
-- once (on a large frontier, every origin whose visit ever failed, in one transaction). Leaving a
-- row in the indexes is always safe: the grab's filters still apply to it.
UPDATE listed_origin
SET cooling_since = last_visit
WHERE last_visit_status IN ('failed', 'not_found')
  AND last_visit > now() - interval '31 days';

DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled ASC NULLS FIRST)
  WHERE awaiting_visit_since IS NULL AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update ASC NULLS LAST, first_seen)
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
  ON listed_origin (visit_type, enabled, next_visit_queue_position ASC NULLS FIRST, first_seen)
  WHERE last_update IS NULL AND awaiting_visit_since IS NULL AND cooling_since IS NULL;

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled ASC NULLS FIRST)
  WHERE awaiting_visit_since IS NULL AND cooling_since IS NULL;

-- The origins cooling after a failed or not-found visit, by status and oldest visit first: a grab
-- finds the ones whose cooldown has ended with one range read per status.
CREATE INDEX listed_origin_cooling
  ON listed_origin (visit_type, last_visit_status, cooling_since)
  WHERE cooling_since IS NOT NULL;
