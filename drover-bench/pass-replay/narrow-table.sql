-- A variant for pass-replay/run FILE (with DONE_SQL counting task_hot). The narrow-table variant: the columns a claim and a completion change live in task_hot, with
-- the status-dependent indexes; the wide task row (arguments, hash, policy, tree columns) is
-- written once at creation and only read afterwards.
CREATE TABLE task_hot (
  id bigint PRIMARY KEY, type text NOT NULL, priority text, concurrency_key text,
  status text NOT NULL, next_run timestamptz NOT NULL, owner text, attempt int NOT NULL DEFAULT 0,
  current_interval_ms bigint, retries_left int NOT NULL DEFAULT 0);
CREATE INDEX hot_claim ON task_hot (type, (COALESCE(priority, 'none')), next_run, id)
  WHERE status = 'next_run_not_scheduled';
CREATE INDEX hot_ready ON task_hot (type, next_run) WHERE status = 'next_run_not_scheduled';
CREATE INDEX hot_leased ON task_hot (next_run) WHERE owner IS NOT NULL;
CREATE INDEX hot_leased_key ON task_hot (type, concurrency_key) WHERE owner IS NOT NULL;
-- The wide table keeps no status-dependent index: drop them, keep the full duplicate lookup.
DROP INDEX task_claim_by_type_priority; DROP INDEX task_ready_by_type;
DROP INDEX task_leased_by_next_run; DROP INDEX task_leased_by_type_and_key;
DROP INDEX task_duplicate_lookup; CREATE INDEX task_duplicate_lookup ON task (type, arguments_hash);
ALTER TABLE task DISABLE TRIGGER task_count_update;
CREATE OR REPLACE PROCEDURE pass_sim(batch int, passes int) LANGUAGE plpgsql AS $$
DECLARE
  prev_ids bigint[] := '{}'; prev_att int[] := '{}';
  ids bigint[]; att int[]; args jsonb[];
BEGIN
  FOR p IN 1..passes LOOP
    WITH c AS (SELECT id FROM task_hot WHERE type = 'noop' AND status = 'next_run_not_scheduled'
                 AND next_run <= now() AND COALESCE(priority, 'none') = 'none'
               ORDER BY next_run, id LIMIT batch FOR UPDATE SKIP LOCKED),
         u AS (UPDATE task_hot t SET status = 'next_run_scheduled', next_run = now() + interval '1 min',
                 owner = 'r1', attempt = t.attempt + 1
               FROM c WHERE t.id = c.id AND t.status = 'next_run_not_scheduled' RETURNING t.*)
    SELECT array_agg(u.id), array_agg(u.attempt), array_agg(w.arguments) INTO ids, att, args
    FROM u JOIN task w ON w.id = u.id;
    INSERT INTO task_run AS r (task, backend_id, scheduled, started, ended, metadata, status, owner, attempt)
    SELECT x.task, 'r1-' || x.task || '-' || x.attempt, now(), now(), now(), '{}', 'eventful', 'r1', x.attempt
    FROM unnest(prev_ids, prev_att) AS x (task, attempt)
    ON CONFLICT (backend_id) DO UPDATE SET ended = excluded.ended, status = excluded.status
    WHERE r.status IN ('scheduled', 'started');
    UPDATE task_hot t SET status = 'completed', next_run = now(), owner = NULL
    FROM unnest(prev_ids, prev_att) AS x (id, attempt)
    WHERE t.id = x.id AND t.owner = 'r1' AND t.attempt = x.attempt AND t.status = 'next_run_scheduled';
    prev_ids := COALESCE(ids, '{}'); prev_att := COALESCE(att, '{}');
    COMMIT;
  END LOOP;
END $$;
INSERT INTO task_hot (id, type, priority, concurrency_key, status, next_run, owner, attempt, current_interval_ms, retries_left)
SELECT id, type, priority, concurrency_key, status, next_run, owner, attempt, current_interval_ms, retries_left FROM task;
VACUUM ANALYZE task_hot;
