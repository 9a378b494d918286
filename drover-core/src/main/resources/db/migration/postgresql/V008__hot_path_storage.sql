-- task_by_next_run served only the search filters on next_run (before/after), an operator's query,
-- while every claim and every completion moves next_run: the index cost two entries per job on the
-- hot path. Searches by next_run now read the rows their other filters select.
DROP INDEX task_by_next_run;

-- A run row is written twice: opened at the claim, ended a moment later. Room left on each page
-- lets PostgreSQL end it in place (a heap-only update: no index entries), where a full page made
-- it write a new version and an entry in every index of task_run.
ALTER TABLE task_run SET (fillfactor = 75);
