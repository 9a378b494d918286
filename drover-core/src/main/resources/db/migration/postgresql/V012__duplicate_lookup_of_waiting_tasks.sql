-- The duplicate lookup holds only tasks waiting for their next run, the only ones a new task can
-- duplicate (TaskInserts' rule). PostgreSQL writes a new row version, with a new entry in every
-- index whose key or predicate it cannot prove unchanged, for each claim and completion of a task;
-- as a full index this one took two random inserts per job into an index keyed by a hash, about a
-- quarter of the server's time in a burn-down. Now a claim and a one-shot task's completion add no
-- entry here, and the rows that leave the waiting status leave the index with them.
DROP INDEX task_duplicate_lookup;
CREATE INDEX task_duplicate_lookup ON task (type, arguments_hash)
  WHERE status = 'next_run_not_scheduled';
