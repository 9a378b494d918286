-- Nothing to change: SQLite keeps each url's visit stats in origin_visit_stats, mirrored into its
-- listed_origin rows (V006). PostgreSQL's V028 moved a listed origin's stats into its listed rows,
-- for fewer rows changed per stats write and per grab.
SELECT 1;
