-- Nothing changes on SQLite: a listed origin keeps its foreign key to its lister. PostgreSQL's V022
-- drops that key, whose check cost a query per recorded origin, and keeps its guarantee by the
-- recording's own check; SQLite's check is one lookup in the same file. The version keeps both
-- dialects in step.
SELECT 1;
