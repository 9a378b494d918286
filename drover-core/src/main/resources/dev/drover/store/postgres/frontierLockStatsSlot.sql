-- PostgreSQL only: SQLite's one writer needs no lock.
-- A stats writer's slot of one visit type (see VisitTypeLocks), held alone until the transaction
-- ends: the first of the eight that no other stats writer holds, tried without waiting; when all
-- are held, the one this backend's process id picks, waited for. Recordings hold every slot
-- shared (frontierLockStatsSlots.sql). COALESCE evaluates its second argument only when the first
-- found no free slot.
SELECT COALESCE(
  (SELECT slot
   FROM generate_series(0, 7) AS slot
   WHERE pg_try_advisory_xact_lock(7032 + slot, hashtext(:visit_type))
   LIMIT 1),
  (SELECT pg_backend_pid() % 8
   FROM (SELECT pg_advisory_xact_lock(7032 + pg_backend_pid() % 8, hashtext(:visit_type))) AS waited))
