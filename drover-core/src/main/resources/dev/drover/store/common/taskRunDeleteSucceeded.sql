-- The open runs of attempts that succeeded, of a type that keeps only the runs that did not
-- succeed (RunHistory.FAILURES): their start was written while they executed (a backend id names
-- one attempt), and their end is not kept. The caller's lease fences the attempt; a run that is
-- no longer open (a rescue ended it) is not one of these.
DELETE FROM task_run
WHERE backend_id IN (<backend_ids>)
  AND status IN ('scheduled', 'started')
