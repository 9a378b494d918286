-- What a runner that exits when idle waits for when nothing is due: among the given types, tasks
-- waiting for a retry (as taskCountOutstanding counts them) and one-shot tasks waiting for their
-- time, each kind counted with its first due time.
SELECT CASE WHEN r.retry = 1 THEN 'retry' ELSE 'later' END AS kind,
       count(*) AS n,
       min(r.next_run) AS first_due
FROM (SELECT t.next_run,
             CASE WHEN t.retries_left < (SELECT tt.num_retries FROM task_type tt WHERE tt.name = t.type)
                       AND EXISTS (SELECT 1
                                   FROM task_run x
                                   WHERE x.task = t.id
                                     AND x.status IN ('failed', 'lost')
                                     AND x.id = (SELECT max(last.id)
                                                 FROM task_run last
                                                 WHERE last.task = t.id))
                  THEN 1 ELSE 0 END AS retry,
             t.policy
      FROM task t
      WHERE t.type IN (<types>)
        AND t.status = 'next_run_not_scheduled'
        AND t.next_run > :now) r
WHERE r.retry = 1 OR r.policy = 'oneshot'
GROUP BY CASE WHEN r.retry = 1 THEN 'retry' ELSE 'later' END
