-- When the next waiting task of one type comes due, and when the next of its leases ends. Each
-- part is a min() that PostgreSQL and SQLite answer with one step into an index
-- (task_ready_by_type, task_leased_by_type), so the cost does not grow with the backlog; an
-- IN list of types or an OR of both parts would make them read every waiting task instead.
SELECT (SELECT min(next_run)
        FROM task
        WHERE type = :type
          AND status = 'next_run_not_scheduled') AS waiting,
       (SELECT min(next_run)
        FROM task
        WHERE type = :type
          AND owner IS NOT NULL) AS leased
