-- Marks running tasks paused (or not) while they run: their lease is fenced on their status, so
-- the status stays; the children their run spawns are created paused, and the task itself is
-- paused when its run ends (taskUpdateAfterRun). Unmarking leaves a paused task to taskResume,
-- so that each task resumed is counted once.
UPDATE task
SET paused_while_running = :paused
WHERE id IN (<ids>)
  AND paused_while_running <> :paused
  AND CASE WHEN :paused THEN status = 'next_run_scheduled' ELSE status <> 'paused' END
