-- PostgreSQL differs: the batch as arrays in one statement (one round trip);
-- SQLite updates a task per execution.
-- What SQLite's taskUpdateAfterRunAsClaimed does row by row, for a whole batch in one statement,
-- the rows as parallel arrays (times in epoch milliseconds, as stored): one execution instead of
-- one per row, which cost PostgreSQL more than the writes. Returns the ids it updated; the others lost their lease or
-- changed since the claim, and the caller reads them again.
UPDATE task t
SET status = CASE WHEN t.paused_while_running AND u.status = 'next_run_not_scheduled'
                  THEN 'paused' ELSE u.status END,
    next_run = timestamptz 'epoch' + u.next_run_ms * interval '1 millisecond',
    current_interval_ms = u.current_interval_ms,
    retries_left = u.retries_left,
    owner = NULL
-- The batch (u) also carries this runner's name and the leased status, and the fence compares
-- them with the task's columns, not with constants: OFFSET 0 keeps u a subquery that the planner
-- cannot fold them out of. With a constant, it filters the task table first and, knowing no
-- runner by that name, counts this runner's leased tasks as one; a nested loop then read the whole
-- batch again for each leased task (500,000 comparisons for a batch of 500 among 1,000 leased:
-- 200-800 ms on 20,000 tasks). Now a nested loop can only begin from the batch and find each task
-- by its primary key (PostgresPassWritePlanTest).
FROM (SELECT u.*, CAST(:owner AS text) AS owner, 'next_run_scheduled' AS leased
      FROM unnest(:ids::bigint[], :attempts::int[], :statuses::text[], :next_run_ms::bigint[],
                  :current_interval_ms::bigint[], :retries_left::int[], :claimed_next_run_ms::bigint[],
                  :claimed_interval_ms::bigint[], :claimed_retries_left::int[])
           AS u (id, attempt, status, next_run_ms, current_interval_ms, retries_left, claimed_next_run_ms,
                 claimed_interval_ms, claimed_retries_left)
      OFFSET 0) AS u
WHERE t.id = u.id
  AND t.owner = u.owner
  AND t.attempt = u.attempt
  AND t.status = u.leased
  AND t.next_run = timestamptz 'epoch' + u.claimed_next_run_ms * interval '1 millisecond'
  AND t.current_interval_ms IS NOT DISTINCT FROM u.claimed_interval_ms
  AND t.retries_left = u.claimed_retries_left
RETURNING t.id
