-- SQLite's V027 moves the counting of a leased task given back from its row trigger to the
-- statements, as V026 did here. PostgreSQL's line is unchanged: this version keeps the two
-- databases' schema versions in step (Migrations.LATEST), and says where the line is.
COMMENT ON TRIGGER task_count_update ON task IS
  'Counts the changes of status that neither count an attempt (a claim) nor take an owner away; the store counts those (V026).';
