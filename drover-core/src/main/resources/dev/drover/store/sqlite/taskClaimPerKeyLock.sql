-- SQLite differs: nothing to lock (one writer); PostgreSQL takes an advisory lock.
-- Nothing to lock on SQLite: its one writer and Drover's IMMEDIATE transactions already make
-- claimers take turns (see the PostgreSQL file). Reads back :type so the call is the same.
SELECT :type
