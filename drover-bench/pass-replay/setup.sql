INSERT INTO task_type (name, description, max_workers) VALUES ('noop', 'x', 8) ON CONFLICT DO NOTHING;
INSERT INTO task (type, arguments, arguments_hash, next_run, policy, retries_left)
SELECT 'noop', jsonb_build_array(g), md5(g::text), now() - interval '1 s', 'oneshot', 0
FROM generate_series(1, 100000) g;
VACUUM ANALYZE;
