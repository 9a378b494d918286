-- PostgreSQL differs: the batch as arrays in one statement (one round trip);
-- SQLite updates a task per execution.
-- What SQLite's taskUpdateAfterRunAsClaimed does row by row, for a whole batch in one statement,
-- the rows as parallel arrays (times in epoch milliseconds, as stored): one execution instead of
-- one per row, which cost PostgreSQL more than the writes. Returns the ids it updated; the others
-- lost their lease or changed since the claim, and the caller reads them again. Each task updated
-- leaves 'next_run_scheduled' and its owner, a change the status counts' row trigger leaves to the
-- store (V026): it counts the statuses returned (taskCountMoved).
UPDATE task t
SET status = CASE WHEN t.paused_while_running AND u.status = 'next_run_not_scheduled'
                  THEN 'paused' ELSE u.status END,
    next_run = timestamptz 'epoch' + u.next_run_ms * interval '1 millisecond',
    current_interval_ms = u.current_interval_ms,
    retries_left = u.retries_left,
    owner = NULL
-- Every task of the batch is found by its primary key, whatever the statistics say. They are
-- often wrong here: no runner by this name is in them (each runner's name is new), and a store
-- analyzed while nothing was leased has its index of leased tasks as empty. So the fence compares
-- nothing with a constant that the planner could estimate from them:
-- - the runner's name and the leased status come with the batch (u); OFFSET 0 keeps u a subquery
--   the planner cannot fold them out of. Compared with constants, the planner counted this
--   runner's leased tasks as one, and a nested loop read the batch again for each leased task;
-- - owner is compared with IS NOT DISTINCT FROM (the same here: u.owner is never null), which,
--   unlike =, does not imply the predicate of task_leased_by_type (owner IS NOT NULL). With =,
--   a nested loop searched that index once per task of the batch, by the lease's end that the
--   whole claim shares, and read every task of the claim each time.
-- Either way was 200-800 ms for a batch of 500 to 750 (PostgresPassWritePlanTest).
FROM (SELECT u.*, CAST(:owner AS text) AS owner, 'next_run_scheduled' AS leased
      FROM unnest(:ids::bigint[], :attempts::int[], :statuses::text[], :next_run_ms::bigint[],
                  :current_interval_ms::bigint[], :retries_left::int[], :claimed_next_run_ms::bigint[],
                  :claimed_interval_ms::bigint[], :claimed_retries_left::int[])
           AS u (id, attempt, status, next_run_ms, current_interval_ms, retries_left, claimed_next_run_ms,
                 claimed_interval_ms, claimed_retries_left)
      OFFSET 0) AS u
WHERE t.id = u.id
  AND t.owner IS NOT DISTINCT FROM u.owner
  AND t.attempt = u.attempt
  AND t.status = u.leased
  AND t.next_run = timestamptz 'epoch' + u.claimed_next_run_ms * interval '1 millisecond'
  AND t.current_interval_ms IS NOT DISTINCT FROM u.claimed_interval_ms
  AND t.retries_left = u.claimed_retries_left
RETURNING t.id, t.type, t.status
