-- Nothing to change: SQLite rewrites an index entry only when a column the index holds changes,
-- so its full duplicate lookup (type, arguments_hash) costs a claim or a completion nothing. A
-- partial index on the status would be rewritten by both. PostgreSQL's V014 makes its lookup
-- partial because there every new row version gets an entry in every index.
SELECT 1;
