-- Runs of finished tasks (one-shot completed or disabled, recurring disabled) whose run time
-- (started, or scheduled if it never started) lies in [after, before). Keyset pagination on
-- (task id, run id): a page starts strictly after the last row of the previous one, so no row is
-- repeated or skipped at a boundary.
SELECT t.id          AS task_id,
       t.policy      AS task_policy,
       t.status      AS task_status,
       t.type        AS type,
       t.arguments   AS arguments,
       r.id          AS task_run_id,
       r.backend_id  AS backend_id,
       r.metadata    AS metadata,
       r.scheduled   AS scheduled,
       r.started     AS started,
       r.ended       AS ended,
       r.status      AS run_status
FROM task t
JOIN task_run r ON r.task = t.id
WHERE ((t.policy = 'oneshot' AND t.status IN ('completed', 'disabled'))
       OR (t.policy = 'recurring' AND t.status = 'disabled'))
  AND COALESCE(r.started, r.scheduled) >= :after
  AND COALESCE(r.started, r.scheduled) < :before
  AND (t.id, r.id) > (:after_task, :after_run)
ORDER BY t.id, r.id
LIMIT :limit
