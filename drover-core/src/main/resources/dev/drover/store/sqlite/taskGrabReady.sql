-- SQLite differs: a plain conditional UPDATE, since its one writer keeps grabbers apart.
-- SQLite has one writer at a time, and Drover opens every write transaction with BEGIN IMMEDIATE,
-- so this single conditional UPDATE cannot hand a task to two grabbers. RETURNING has no order;
-- the caller sorts by (next_run, id).
UPDATE task
SET status = 'next_run_scheduled'
WHERE id IN (SELECT id
             FROM task
             WHERE type = :type
               AND status = 'next_run_not_scheduled'
               AND next_run <= :now
               AND COALESCE(priority, 'none') = COALESCE(:priority, 'none')
             ORDER BY next_run, id
             LIMIT :limit)
RETURNING *
