-- Inserts a chunk of new tasks in one statement; the caller supplies one ten-parameter row per task
-- in the columns' order and maps the returned rows back to its tasks by their duplicate keys.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
VALUES <values>
RETURNING *
