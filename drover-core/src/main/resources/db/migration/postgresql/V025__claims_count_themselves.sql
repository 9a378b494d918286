-- SQLite's V025 lets a claim count the tasks it leases itself instead of its row trigger. PostgreSQL's
-- statement-level triggers (V011) already count a claim once per statement, so nothing changes
-- here; the version keeps both dialects' schemas numbered alike (MigrationsTest).
COMMENT ON TABLE task_count IS
  'Tasks per type and status: the sum of the rows of each pair, appended by statement triggers on task and folded by the leader (V011).';
