-- What keeps a runner that exits when idle from exiting, and what fills a visit queue: among the
-- given types, tasks that are due, one-shot tasks waiting for their time, leased tasks (running
-- somewhere), and tasks waiting for a retry (their last run failed or was lost, and they have a
-- retry fewer than their type gives). The next regular run of a recurring task does not count: nor
-- does the one after a failure that used its last retry (retries reset, one interval later).
-- Waiting tasks of a paused type do not count either (they are not claimed until it is resumed);
-- its running tasks do.
-- Two counts over disjoint statuses, each with its status as a constant, so that each reads a
-- partial index (of the tasks waiting, and of the leased ones) and never the ended tasks, whatever
-- the planner's statistics say: a type's history of one-shot tasks grows without end (a visit
-- type ends a thousand a second), its queue does not.
-- The waiting tasks are counted type by type, each type read once, its pause and retries then
-- constants of its count: asking the type for each waiting task searched task_type once per task,
-- a thousand times a count for a full visit queue, and two thirds of the buffers the count read.
SELECT
  (SELECT coalesce(sum(per_type.n), 0)
   FROM (SELECT (SELECT count(*)
                 FROM task t
                 WHERE t.type = tt.name
                   AND t.status = 'next_run_not_scheduled'
                   AND (t.next_run <= :now
                        OR t.policy = 'oneshot'
                        OR (t.retries_left < tt.num_retries
                            AND EXISTS (SELECT 1
                                        FROM task_run r
                                        WHERE r.task = t.id
                                          AND r.status IN ('failed', 'lost')
                                          AND r.id = (SELECT max(last.id)
                                                      FROM task_run last
                                                      WHERE last.task = t.id))))) AS n
         FROM task_type tt
         WHERE tt.name IN (<types>)
           AND NOT tt.paused) AS per_type)
  + (SELECT count(*)
     FROM task t
     WHERE t.type IN (<types>)
       AND t.owner IS NOT NULL
       AND t.status = 'next_run_scheduled')
