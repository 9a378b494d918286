-- The lookups by (task, attempt) want only open runs: the fence of an owner's final writes
-- (taskLeaseHeld), the open run of a claim's attempt (taskRunOfAttempt). So the index holds only
-- those. Most runs are written already ended (a short run is over before its runner's next pass)
-- and now get no entry in it: one B-tree insert fewer per job. A run that outlives a pass pays
-- instead: ending it removes its entry. The index also serves the list of open runs
-- (taskRunOpen), which used to read the whole table.
CREATE INDEX task_run_open_by_task_attempt ON task_run (task, attempt)
  WHERE status IN ('scheduled', 'started');
DROP INDEX task_run_by_task_attempt;
