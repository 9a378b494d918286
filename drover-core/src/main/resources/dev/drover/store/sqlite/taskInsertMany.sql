-- SQLite differs: one ten-parameter row per task (<values>), compiled once per row count and
-- call; PostgreSQL binds ten arrays, so its text is the same for every count.
-- Inserts a chunk of new tasks in one statement; the caller supplies one ten-parameter row per task
-- in the columns' order and maps the returned rows back to its tasks by their duplicate keys (the
-- order of RETURNING rows is not defined); the other columns are what it wrote.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
VALUES <values>
RETURNING id, type, arguments_hash, policy, priority, next_run
