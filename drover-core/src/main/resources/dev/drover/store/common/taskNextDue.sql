-- When, strictly between :after and :before, the next waiting task of one type comes due, and when
-- the next of its leases ends. Each part is a min() over a range of an index (task_ready_by_type,
-- task_leased_by_type), so the cost does not grow with the backlog; an IN list of types or an OR of
-- both parts would make them read every waiting task instead. The range matters on PostgreSQL: a
-- claimed task's entry stays in task_ready_by_type, dead, until a vacuum, and after a backlog is
-- drained a min() from the start of the type walked every one of them (up to 193 ms a call after
-- a million).
SELECT (SELECT min(next_run)
        FROM task
        WHERE type = :type
          AND status = 'next_run_not_scheduled'
          AND next_run > :after
          AND next_run < :before) AS waiting,
       (SELECT min(next_run)
        FROM task
        WHERE type = :type
          AND owner IS NOT NULL
          AND next_run > :after
          AND next_run < :before) AS leased
