-- PostgreSQL differs: the chunk as ten parallel arrays in one statement (next_run in epoch
-- milliseconds), so its text is the same for any count: the driver prepares it once on the
-- server, where a VALUES list of 500 rows and 5,000 parameters was parsed and planned anew for
-- every chunk (more server time than the insert itself). SQLite binds one row per task.
-- Inserts a chunk of new tasks in one statement, in the arrays' order; the caller maps the returned
-- rows back to its tasks by their duplicate keys (the order of RETURNING rows is not defined); the
-- other columns are what it wrote.
INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status, policy,
                  retries_left, priority, concurrency_key)
SELECT n.type, n.arguments::jsonb, n.arguments_hash, timestamptz 'epoch' + n.next_run_ms * interval '1 millisecond',
       n.current_interval_ms, n.status, n.policy, n.retries_left, n.priority, n.concurrency_key
FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::integer[],
            ?::text[], ?::text[])
       WITH ORDINALITY AS n (type, arguments, arguments_hash, next_run_ms, current_interval_ms, status, policy,
                             retries_left, priority, concurrency_key, position)
ORDER BY n.position
RETURNING id, type, arguments_hash, policy, priority, next_run
