-- PostgreSQL only: SQLite's one writer needs no lock.
-- Takes the frontier's write lock of one visit type until the transaction ends (see
-- VisitTypeLocks). 7031 is Drover's namespace for frontier advisory locks; a hash collision
-- between two visit types only makes them take turns.
SELECT 1
FROM (SELECT pg_advisory_xact_lock(7031, hashtext(:visit_type))) AS locked
