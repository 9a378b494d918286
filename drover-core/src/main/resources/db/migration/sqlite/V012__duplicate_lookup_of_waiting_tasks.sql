-- Nothing changes on SQLite. PostgreSQL's V012 makes its duplicate lookup partial (waiting tasks
-- only) because each claim and completion there added an entry to it. SQLite updates a row in
-- place and touches only the indexes whose columns change, so its full index costs a claim
-- nothing, while a partial one would cost each claim a delete from it.
SELECT 1;
