-- Loaded into the template database of pass-replay/run (see there).
-- Simulates a runner's passes server-side: each pass claims :batch due no-op tasks and completes
-- the previous pass's claims (run row written whole, task updated), then commits.
CREATE OR REPLACE PROCEDURE pass_sim(batch int, passes int) LANGUAGE plpgsql AS $$
DECLARE
  prev_ids bigint[] := '{}'; prev_att int[] := '{}';
  ids bigint[]; att int[];
BEGIN
  FOR p IN 1..passes LOOP
    WITH c AS (SELECT id FROM task WHERE type = 'noop' AND status = 'next_run_not_scheduled'
                 AND next_run <= now() AND COALESCE(priority, 'none') = 'none'
               ORDER BY next_run, id LIMIT batch FOR UPDATE SKIP LOCKED),
         u AS (UPDATE task t SET status = 'next_run_scheduled', next_run = now() + interval '1 min',
                 owner = 'r1', attempt = t.attempt + 1
               FROM c WHERE t.id = c.id AND t.status = 'next_run_not_scheduled' RETURNING t.*)
    SELECT array_agg(u.id), array_agg(u.attempt) INTO ids, att FROM u;
    INSERT INTO task_run AS r (task, backend_id, scheduled, started, ended, metadata, status, owner, attempt)
    SELECT x.task, 'r1-' || x.task || '-' || x.attempt, now(), now(), now(), '{}', 'eventful', 'r1', x.attempt
    FROM unnest(prev_ids, prev_att) AS x (task, attempt)
    ON CONFLICT (backend_id) DO UPDATE SET ended = excluded.ended, status = excluded.status
    WHERE r.status IN ('scheduled', 'started');
    UPDATE task t SET status = 'completed', next_run = now(), owner = NULL
    FROM unnest(prev_ids, prev_att) AS x (id, attempt)
    WHERE t.id = x.id AND t.owner = 'r1' AND t.attempt = x.attempt AND t.status = 'next_run_scheduled';
    prev_ids := COALESCE(ids, '{}'); prev_att := COALESCE(att, '{}');
    COMMIT;
  END LOOP;
END $$;
