-- Nothing to change: SQLite compares text byte by byte (BINARY) unless told otherwise, which is
-- what PostgreSQL's V013 gives the frontier's urls and visit types.
SELECT 1;
