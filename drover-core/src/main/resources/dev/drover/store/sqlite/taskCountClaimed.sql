-- SQLite only: PostgreSQL's claims count themselves in their own statement (V026). A claim's :n
-- tasks of :type moved from 'next_run_not_scheduled' to 'next_run_scheduled', counted once for the
-- statement in its transaction: the row trigger leaves a change that counts an attempt to the
-- claim (V025, V026).
-- The waiting count's row exists, since the tasks were counted there when created.
INSERT INTO task_count (type, status, n)
VALUES (:type, 'next_run_not_scheduled', -:n), (:type, 'next_run_scheduled', :n)
ON CONFLICT (type, status) DO UPDATE SET n = n + excluded.n
