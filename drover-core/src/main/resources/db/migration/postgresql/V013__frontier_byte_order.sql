-- The frontier's urls and visit types compare byte by byte (collation "C"), as SQLite compares
-- all text. They are keys, not words: nobody needs them in a language's dictionary order, and
-- every B-tree step of a language collation is a strcoll() call, where "C" is a memcmp(). Eight
-- indexes of listed_origin and the primary key of origin_visit_stats start with or contain them,
-- so recording an origin, grabbing it and writing its stats each pay that on every step down
-- every index. Origin pages come in url byte order on both databases now.
--
-- Changing only the collation rewrites no table, only the indexes on these columns.
ALTER TABLE listed_origin
  ALTER COLUMN url TYPE text COLLATE "C",
  ALTER COLUMN visit_type TYPE text COLLATE "C";
ALTER TABLE origin_visit_stats
  ALTER COLUMN url TYPE text COLLATE "C",
  ALTER COLUMN visit_type TYPE text COLLATE "C";
