-- PostgreSQL only: SQLite's one writer needs no lock.
-- Takes the frontier's write lock of one visit type in shared mode until the transaction ends:
-- recordings and stats writers share it, and then take the stats slots
-- (frontierLockStatsSlots.sql, frontierLockStatsSlot.sql); every other frontier writer takes it
-- alone (frontierLockVisitType.sql). See VisitTypeLocks.
SELECT 1
FROM (SELECT pg_advisory_xact_lock_shared(7031, hashtext(:visit_type))) AS locked
