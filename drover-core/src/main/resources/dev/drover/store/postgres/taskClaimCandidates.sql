-- PostgreSQL differs: concurrent claimers, so the candidates are locked with SKIP LOCKED.
-- The candidates of a claim: the oldest due tasks of one type at each priority level ('none' for
-- tasks without one), up to :limit per level. The caller splits its budget between the levels by
-- the priority shares and claims its choice with taskClaim, so a claim costs two round trips
-- however many levels there are; each level is one walk down task_claim_by_type_priority.
-- SKIP LOCKED lets concurrent claimers take disjoint rows without waiting; the rows stay locked
-- until commit, so the chosen ones are still due when taskClaim writes them, and the others are
-- merely skipped by other claimers meanwhile. Each level is a MATERIALIZED CTE, which runs exactly
-- once (a locking clause is not allowed directly in a UNION). A paused type has no candidates:
-- each level's check of task_type is one primary-key probe, evaluated once, in the same statement
-- rather than a round trip of its own.
-- Each level starts past its floor (ClaimFloors): the due order's key of the last task this
-- process claimed at that level, while its claims keep coming back full. The index entries of
-- claimed tasks stay in task_claim_by_type_priority until a vacuum removes them, all of them at
-- the front, so a claim from the start reads past every task claimed since the last vacuum: 4,500
-- index pages (17-21 ms) per claim late in a burn-down of 1,000,000. A NULL floor starts at the
-- front.
WITH high AS MATERIALIZED (
  SELECT id, next_run FROM task
  WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
    AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
    AND COALESCE(priority, 'none') = 'high'
    AND (next_run, id) > (COALESCE(CAST(:high_after_run AS timestamptz), '-infinity'),
                          COALESCE(CAST(:high_after_id AS bigint), 0))
  ORDER BY next_run, id LIMIT :limit
  FOR UPDATE SKIP LOCKED
), normal AS MATERIALIZED (
  SELECT id, next_run FROM task
  WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
    AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
    AND COALESCE(priority, 'none') = 'normal'
    AND (next_run, id) > (COALESCE(CAST(:normal_after_run AS timestamptz), '-infinity'),
                          COALESCE(CAST(:normal_after_id AS bigint), 0))
  ORDER BY next_run, id LIMIT :limit
  FOR UPDATE SKIP LOCKED
), low AS MATERIALIZED (
  SELECT id, next_run FROM task
  WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
    AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
    AND COALESCE(priority, 'none') = 'low'
    AND (next_run, id) > (COALESCE(CAST(:low_after_run AS timestamptz), '-infinity'),
                          COALESCE(CAST(:low_after_id AS bigint), 0))
  ORDER BY next_run, id LIMIT :limit
  FOR UPDATE SKIP LOCKED
), unprioritized AS MATERIALIZED (
  SELECT id, next_run FROM task
  WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
    AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
    AND COALESCE(priority, 'none') = 'none'
    AND (next_run, id) > (COALESCE(CAST(:none_after_run AS timestamptz), '-infinity'),
                          COALESCE(CAST(:none_after_id AS bigint), 0))
  ORDER BY next_run, id LIMIT :limit
  FOR UPDATE SKIP LOCKED
)
SELECT id, next_run, 'high' AS level FROM high
UNION ALL SELECT id, next_run, 'normal' FROM normal
UNION ALL SELECT id, next_run, 'low' FROM low
UNION ALL SELECT id, next_run, 'none' FROM unprioritized
