-- A final child was retried: its waiting parent counts it pending again (and no longer failed,
-- if it had failed). A sealed parent is left sealed: the child then runs on its own.
UPDATE task
SET children_pending = children_pending + 1,
    children_failed = children_failed - :failed
WHERE id = :id
  AND status = 'waiting_for_children'
