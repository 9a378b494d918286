-- An operator adds :n tasks under parent :id. A parent that waits for its children counts them
-- pending too, so it seals only once they are final as well; a oneshot parent that is already
-- final (done, or failed for good) takes them into its tree and stays sealed. Any other parent
-- (not yet run, running, paused, or recurring) would reset its counters when its next run spawns,
-- so it takes none: no row comes back. The update also holds the parent's row until the commit.
UPDATE task
SET children_total = children_total + :n,
    children_pending = children_pending
      + CASE WHEN status = 'waiting_for_children' THEN :n ELSE 0 END
WHERE id = :id
  AND (status = 'waiting_for_children'
       OR (policy = 'oneshot' AND status IN ('completed', 'disabled')))
RETURNING COALESCE(root, id) AS root
