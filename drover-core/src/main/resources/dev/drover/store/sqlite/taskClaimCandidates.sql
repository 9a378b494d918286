-- SQLite differs: no row locks, since its one writer already keeps claimers apart.
-- The candidates of a claim: the oldest due tasks of one type at each priority level ('none' for
-- tasks without one), up to :limit per level. The caller splits its budget between the levels by
-- the priority shares and claims its choice with taskClaim, so a claim costs two statements
-- however many levels there are; each level is one walk down task_claim_by_type_priority. No
-- other claimer can interleave: SQLite has one writer, and Drover begins write transactions
-- IMMEDIATE. A paused type has no candidates: the check of task_type is a primary-key probe in
-- the same statement rather than one of its own.
SELECT id, next_run, level
FROM (SELECT id, next_run, 'high' AS level
      FROM task
      WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
        AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
        AND COALESCE(priority, 'none') = 'high'
      ORDER BY next_run, id
      LIMIT :limit)
UNION ALL
SELECT id, next_run, level
FROM (SELECT id, next_run, 'normal' AS level
      FROM task
      WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
        AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
        AND COALESCE(priority, 'none') = 'normal'
      ORDER BY next_run, id
      LIMIT :limit)
UNION ALL
SELECT id, next_run, level
FROM (SELECT id, next_run, 'low' AS level
      FROM task
      WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
        AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
        AND COALESCE(priority, 'none') = 'low'
      ORDER BY next_run, id
      LIMIT :limit)
UNION ALL
SELECT id, next_run, level
FROM (SELECT id, next_run, 'none' AS level
      FROM task
      WHERE type = :type AND status = 'next_run_not_scheduled' AND next_run <= :now
        AND NOT EXISTS (SELECT 1 FROM task_type WHERE name = :type AND paused)
        AND COALESCE(priority, 'none') = 'none'
      ORDER BY next_run, id
      LIMIT :limit)
