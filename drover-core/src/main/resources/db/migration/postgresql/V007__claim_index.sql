-- Serves taskClaim, taskPeekReady and taskGrabReady: due tasks of one type and one priority level,
-- oldest first. The level is COALESCE(priority, 'none') because a NULL priority (tasks without
-- one) cannot be matched by an index through IS NOT DISTINCT FROM; with task_ready_by_type alone
-- an empty level read every due task of the type, so each claim cost grew with the backlog.
CREATE INDEX task_claim_by_type_priority ON task (type, (COALESCE(priority, 'none')), next_run, id)
  WHERE status = 'next_run_not_scheduled';
