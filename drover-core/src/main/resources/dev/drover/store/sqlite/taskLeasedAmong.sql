-- SQLite only: PostgreSQL's statements that take a leased task's owner away read what they change
-- themselves (V026).
-- The tasks among :ids that are leased and still have their owner, with their type: a cancel or
-- a run's end reads them in its transaction before taking their owner away, and counts their
-- move, which the row trigger leaves to the statement (V027). SQLite has one writer, so nothing
-- changes them between this read and the update.
SELECT id, type
FROM task
WHERE id IN (<ids>)
  AND owner IS NOT NULL
  AND status = 'next_run_scheduled'
