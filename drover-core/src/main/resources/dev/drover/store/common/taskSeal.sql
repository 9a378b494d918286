-- Seals a parent whose last child became final: :status is done, failed for good (disabled) or,
-- for a recurring parent, waiting for its next run (its next_run was set when its run ended).
UPDATE task
SET status = :status
WHERE id = :id
  AND status = 'waiting_for_children'
  AND children_pending = 0
