-- A parent whose run spawned :n children waits for them: not due, not done. Its counters start
-- over (a recurring parent spawns a new generation each run, and only runs once the last one
-- sealed). Returns the root its children take, and whether an operator paused it while it ran (its
-- children are then created paused).
UPDATE task
SET status = 'waiting_for_children',
    children_pending = :n,
    children_total = :n,
    children_failed = 0
WHERE id = :id
RETURNING COALESCE(root, id) AS root, paused_while_running
