-- Counts :settled children of parent :id final, :failed of them failed or cancelled: one row
-- written per parent per transaction, never a scan of the siblings. Only a waiting parent counts:
-- a child retried after its parent sealed changes nothing.
UPDATE task
SET children_pending = children_pending - :settled,
    children_failed = children_failed + :failed
WHERE id = :id
  AND status = 'waiting_for_children'
RETURNING id, type, policy, children_pending, children_total, children_failed
