-- Nothing changes on SQLite: a task keeps its foreign key to its type. PostgreSQL's V021 drops that
-- key, whose check cost a query per inserted task, and keeps its guarantee by the inserts' own
-- checks; SQLite's check is one lookup in the same file. The version keeps both dialects in step.
SELECT 1;
