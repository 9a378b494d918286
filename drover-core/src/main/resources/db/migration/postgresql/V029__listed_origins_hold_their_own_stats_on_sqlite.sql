-- Nothing to change: PostgreSQL's V028 already keeps a listed origin's visit stats in its
-- listed_origin rows alone; SQLite's V029 does the same there.
SELECT 1;
