-- PostgreSQL only: SQLite's one writer needs no lock.
-- A recording's hold on each lister it records for, alone, until the transaction ends (see
-- VisitTypeLocks): recordings of one lister take turns, so no two recordings ever write the same
-- rows at once, whatever order their plans reach the rows in. Taken in the order of the lock keys,
-- as every recording takes them. 7040 is Drover's namespace for listers' locks; a hash collision
-- between two listers only makes their recordings take turns.
SELECT count(*)
FROM (SELECT pg_advisory_xact_lock(7040, key)
      FROM (SELECT DISTINCT hashtext(lister_id) AS key
            FROM unnest(:lister_ids::text[]) AS l (lister_id)
            ORDER BY key) AS keys) AS locked
