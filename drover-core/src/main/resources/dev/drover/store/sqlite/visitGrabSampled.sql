-- SQLite differs: no TABLESAMPLE (blocks of rowids instead) and no advisory lock (one writer).
-- Chooses origins for grab next visits from a sample of the table; see the PostgreSQL file.
-- SQLite has no TABLESAMPLE: RowidBlockSample draws blocks of :sample_block_rows consecutive
-- rowids (:sample_blocks, a JSON array of block numbers, ascending), and the grab reads each
-- kept block by one rowid range, as PostgreSQL reads a kept page. CROSS JOIN keeps the blocks
-- the outer loop. The grab runs in an IMMEDIATE transaction, so grabs take turns.
WITH sample_block (first_rowid) AS (
  SELECT value * :sample_block_rows FROM json_each(:sample_blocks)
)
SELECT listed_origin.*
FROM sample_block
CROSS JOIN listed_origin
WHERE listed_origin.rowid >= sample_block.first_rowid
  AND listed_origin.rowid < sample_block.first_rowid + :sample_block_rows
  AND visit_type = :visit_type
  AND enabled = :enabled
  <filters>
ORDER BY <order>
LIMIT :count
