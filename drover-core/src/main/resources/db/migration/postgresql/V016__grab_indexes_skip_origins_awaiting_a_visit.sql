-- An origin handed out by a grab and not yet visited (scheduled, and no visit result since) leaves
-- every grab policy's index, and one small index holds it until its visit reports back.
--
-- A grab marks what it hands out: last_scheduled becomes now. Before, the marked row stayed in the
-- policy indexes, so the mark wrote the row's new version into all eight indexes of listed_origin
-- (about 9,400 WAL records per grab of 1,000), and every later grab of a policy whose order the
-- mark does not change (stop_after_success, never_visited, by_lag, without_last_update) read past
-- it, filtered out by the scheduled cooldown (65,000 rows per grab after a few rounds at 1M). Now
-- the new version matches no grab index's predicate, so PostgreSQL writes it into the primary key,
-- the url index and listed_origin_awaiting_visit only, and later grabs never meet it.
--
-- A predicate, not a flag column: it needs no write when the visit reports back (the stats write
-- that records the visit rewrites the row anyway, and the new version re-enters the policy
-- indexes it matches) and none when a cooldown ends. An origin awaiting its visit is still
-- eligible once the request's cooldowns allow it (a lost visit, after the scheduled cooldown; any
-- time, with no cooldown): the grab reads those from listed_origin_awaiting_visit, by
-- last_scheduled, and merges them into the policy's order (visitGrab.sql).
--
-- "awaiting a visit" is: last_scheduled IS NOT NULL AND (last_visit IS NULL OR last_scheduled >=
-- last_visit); every grab index takes its complement, (last_scheduled IS NULL OR last_scheduled <
-- last_visit), so every row is in exactly one of the two sides. The grab's SQL repeats each clause
-- word for word, so that the planner can prove the partial index applies.
DROP INDEX listed_origin_grab_oldest_scheduled;
CREATE INDEX listed_origin_grab_oldest_scheduled
  ON listed_origin (visit_type, enabled, last_scheduled ASC NULLS FIRST)
  WHERE (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_stop_after_success;
CREATE INDEX listed_origin_grab_stop_after_success
  ON listed_origin (visit_type, enabled, last_update ASC NULLS LAST, first_seen)
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
  ON listed_origin (visit_type, enabled, next_visit_queue_position ASC NULLS FIRST, first_seen)
  WHERE last_update IS NULL
    AND (last_scheduled IS NULL OR last_scheduled < last_visit);

DROP INDEX listed_origin_grab_first_visits;
CREATE INDEX listed_origin_grab_first_visits
  ON listed_origin (visit_type, enabled, lister_id, last_scheduled ASC NULLS FIRST)
  WHERE (last_scheduled IS NULL OR last_scheduled < last_visit);

-- The origins awaiting a visit, oldest scheduling first: a grab reads the ones whose cooldowns
-- have ended (last_scheduled < the earlier threshold) and nothing else. New entries land at the
-- right end (a mark writes now), so the mark's entry here is an append. It holds about a visit
-- queue's worth of origins plus the visits that never reported back.
CREATE INDEX listed_origin_awaiting_visit
  ON listed_origin (visit_type, enabled, last_scheduled)
  WHERE last_scheduled IS NOT NULL AND (last_visit IS NULL OR last_scheduled >= last_visit);
