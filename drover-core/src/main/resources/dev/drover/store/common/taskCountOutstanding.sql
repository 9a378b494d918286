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
SELECT
  (SELECT count(*)
   FROM task t
   WHERE t.type IN (<types>)
     AND t.status = 'next_run_not_scheduled'
     AND NOT (SELECT tt.paused FROM task_type tt WHERE tt.name = t.type)
     AND (t.next_run <= :now
          OR t.policy = 'oneshot'
          OR (t.retries_left < (SELECT tt.num_retries FROM task_type tt WHERE tt.name = t.type)
              AND EXISTS (SELECT 1
                          FROM task_run r
                          WHERE r.task = t.id
                            AND r.status IN ('failed', 'lost')
                            AND r.id = (SELECT max(last.id) FROM task_run last WHERE last.task = t.id)))))
  + (SELECT count(*)
     FROM task t
     WHERE t.type IN (<types>)
       AND t.owner IS NOT NULL
       AND t.status = 'next_run_scheduled')
