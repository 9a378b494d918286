-- One index over the leased tasks instead of two. A claim gave each leased task an entry in
-- task_leased_by_next_run (next_run) and in task_leased_by_type_and_key (type, concurrency_key),
-- and a completion left both: a B-tree insert per claim that this saves. The one index,
-- (type, next_run), serves a type's next lease end (taskNextDue) with one step, as before; the
-- per-key claim counts a type's leases through it (their key is read from the row); the rescue
-- and a dead runner's leases (taskLeaseExpired, taskLeasedBy) read it whole, which holds only
-- the tasks leased at that moment, bounded by the workers and claim-ahead of the runners.
CREATE INDEX task_leased_by_type ON task (type, next_run) WHERE owner IS NOT NULL;
DROP INDEX task_leased_by_next_run;
DROP INDEX task_leased_by_type_and_key;
