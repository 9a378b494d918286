-- Serves taskClaim, taskPeekReady and taskGrabReady: due tasks of one type and one priority level,
-- oldest first. The level is COALESCE(priority, 'none') so that tasks without a priority have a
-- level the index can match like the others (see the PostgreSQL file). The rowid (id) is the
-- index's last column implicitly.
CREATE INDEX task_claim_by_type_priority ON task (type, COALESCE(priority, 'none'), next_run)
  WHERE status = 'next_run_not_scheduled';
