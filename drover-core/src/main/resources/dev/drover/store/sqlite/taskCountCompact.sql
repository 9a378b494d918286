-- SQLite differs: its triggers keep one row per (type, status) already (see migration V011);
-- only the rows of counts that fell to zero are left to drop.
DELETE FROM task_count WHERE n = 0
