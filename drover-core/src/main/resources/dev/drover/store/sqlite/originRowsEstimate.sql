-- SQLite differs: no planner statistics without ANALYZE; max(rowid) is one seek at the end of the
-- table's b-tree. Rowids are assigned max + 1 and origins are rarely deleted, so it is the row
-- count or a little above it.
-- About how many listed origins there are, to decide whether a visit policy's sample can help.
SELECT coalesce(max(rowid), 0) FROM listed_origin
