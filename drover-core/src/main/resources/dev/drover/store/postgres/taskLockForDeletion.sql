-- PostgreSQL only: SQLite's one writer needs no lock, and its runs keep a foreign key.
-- Tasks about to be deleted, locked before their runs are read: a statement writing a run holds
-- its task locked until it commits (V019), so the deletion waits for it and then sees the run.
-- In id order, as every transaction locks tasks, so that no two wait on each other in a circle.
SELECT id FROM task WHERE id IN (<ids>) ORDER BY id FOR UPDATE
