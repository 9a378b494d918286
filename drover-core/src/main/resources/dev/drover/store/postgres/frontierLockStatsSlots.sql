-- PostgreSQL only: SQLite's one writer needs no lock.
-- A recording's hold on the stats slots of one visit type (see VisitTypeLocks): all eight, shared
-- with other recordings, in slot order, until the transaction ends. A stats writer holds one slot
-- alone, so recordings and stats writers wait for each other while each runs beside its own kind.
-- 7032 to 7039 are Drover's namespaces for the slots.
SELECT count(*)
FROM (SELECT pg_advisory_xact_lock_shared(7032 + slot, hashtext(:visit_type))
      FROM generate_series(0, 7) AS slot) AS locked
