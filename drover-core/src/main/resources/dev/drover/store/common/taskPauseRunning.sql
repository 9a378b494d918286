-- Marks running tasks paused (or not) while they run: their lease is fenced on their status, so
-- the status stays; the children their run spawns are created paused.
UPDATE task
SET paused_while_running = :paused
WHERE id IN (<ids>)
  AND (status = 'next_run_scheduled' OR NOT :paused)
