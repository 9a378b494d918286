-- What a runner that exits when idle waits for when nothing is due: among the given types, tasks
-- waiting for a retry (as taskCountOutstanding counts them) and one-shot tasks waiting for their
-- time, each kind counted with its first due time.
-- The type is joined once, its retries then a constant of its tasks: asking the type for each task
-- searched task_type once per task due later, recurring ones included.
SELECT CASE WHEN r.retry = 1 THEN 'retry' ELSE 'later' END AS kind,
       count(*) AS n,
       min(r.next_run) AS first_due
FROM (SELECT t.next_run,
             CASE WHEN t.retries_left < tt.num_retries
                       AND EXISTS (SELECT 1
                                   FROM task_run x
                                   WHERE x.task = t.id
                                     AND x.status IN ('failed', 'lost')
                                     AND x.id = (SELECT max(last.id)
                                                 FROM task_run last
                                                 WHERE last.task = t.id))
                  THEN 1 ELSE 0 END AS retry,
             t.policy
      FROM task_type tt
      JOIN task t ON t.type = tt.name
      WHERE tt.name IN (<types>)
        AND t.status = 'next_run_not_scheduled'
        AND t.next_run > :now) r
WHERE r.retry = 1 OR r.policy = 'oneshot'
GROUP BY CASE WHEN r.retry = 1 THEN 'retry' ELSE 'later' END
