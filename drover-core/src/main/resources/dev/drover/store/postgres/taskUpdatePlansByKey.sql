-- PostgreSQL only: SQLite plans a statement by its indexes, not by the table's size.
-- Run in the pass's writes transaction just before taskUpdateAfterRunAsClaimed: until the
-- transaction ends, the planner may not join by hashing or merging nor scan a table whole (the
-- statements after the update find their rows by key too), so the update takes the plan its plan
-- tests require, each task of the batch found by its primary key, whatever PostgreSQL believes
-- about the table.
-- Left to choose, PostgreSQL chooses by the table's size when it plans, and a prepared statement
-- keeps the plan it made for all parameters until the table is analyzed. A runner's connections
-- make that plan in their first passes; on a new store, whose table then held a few rows, it was
-- a scan of the whole table, kept as the table grew until autovacuum analyzed it: 1 ms a
-- completion at 4,000 tasks, 6 ms at 20,000 (docs/benchmarks.md, "Sustained p99: the compiler,
-- not the scheduler").
SELECT set_config('enable_hashjoin', 'off', true) AS enable_hashjoin,
       set_config('enable_mergejoin', 'off', true) AS enable_mergejoin,
       set_config('enable_seqscan', 'off', true) AS enable_seqscan
