-- task_by_next_run served only the search filters on next_run (before/after), an operator's query,
-- while every claim and every completion moves next_run: the index cost two entries per job on the
-- hot path. Searches by next_run now read the rows their other filters select.
DROP INDEX task_by_next_run;
