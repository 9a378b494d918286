-- Only a task that waits to be scheduled can be duplicated (see TaskInserts), so the duplicate
-- lookup indexes waiting tasks only. PostgreSQL gives every new row version an entry in every
-- index it belongs to: with the lookup over all tasks, each claim and each completion wrote one
-- more entry, on a random leaf page (the key is a hash), a quarter of the server's time per job in
-- the pass replay (docs/benchmarks.md). Now a task leaves the lookup when it is claimed, and a
-- one-shot task never comes back to it.
--
-- The predicate compares in collation "C" (for equality the same as the database's own), and the
-- lookups (taskFindDuplicates.sql, taskInsertUnlessDuplicate.sql) say so too: then no other
-- index's predicate follows from a lookup's conditions. Until VACUUM or ANALYZE has seen a table,
-- the planner guesses that any index matches a few rows, and with `status =
-- 'next_run_not_scheduled'` alone it took task_ready_by_type, the smallest index with that
-- predicate, and walked every waiting task of the type per lookup: a bulk insert into a new
-- database fell from 16,462 to 1,427 tasks/s. PostgresDuplicatePlanTest checks this on a table
-- without statistics. The hash leads, so no query by type can use this index either.
DROP INDEX task_duplicate_lookup;
CREATE INDEX task_duplicate_lookup ON task (arguments_hash, type)
  WHERE status = 'next_run_not_scheduled' COLLATE "C";
