-- Nothing changes on SQLite: a run keeps its foreign key to its task. PostgreSQL's V019 drops that
-- key, whose check cost a query per run, and keeps its guarantee by locks; SQLite's writers take
-- turns, and its check is one lookup in the same file. The version keeps both dialects in step.
SELECT 1;
