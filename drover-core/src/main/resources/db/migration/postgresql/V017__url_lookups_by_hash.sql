-- listed_origin_by_url becomes a hash index on url. Every use of it is an equality on url (a
-- grab's mark, a stats write's mirror refresh, disabling an origin, the origin listing's url
-- filter), never a range or an order, and on a large frontier these lookups and their inserts are
-- most of the cost of those writes: urls arrive in no order, so each is a random descent through
-- a B-tree of long keys, four or five pages of which only the top stays in the CPU's caches. A
-- hash index reaches a url's entries through one bucket page, and keeps a 4-byte hash per row
-- instead of the url: at 1,000,000 origins 32 MB against 129 MB, so it stays in memory far
-- longer as the frontier grows. Measured on 1,000,000 origins: 1,000 lookups by url took 3.6 to
-- 4.2 ms through it, 7 to 14 ms through the B-tree. Hash indexes take one column: visit_type, on
-- the same heap row, is checked there (a url has one row per lister and visit type).
DROP INDEX listed_origin_by_url;
CREATE INDEX listed_origin_by_url ON listed_origin USING hash (url);
