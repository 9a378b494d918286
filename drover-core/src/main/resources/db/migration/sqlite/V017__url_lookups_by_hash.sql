-- Nothing to change: SQLite has no hash index; listed_origin_by_url stays a B-tree on (url,
-- visit_type), which serves the same lookups (PostgreSQL's V017 made its own a hash index).
SELECT 1;
