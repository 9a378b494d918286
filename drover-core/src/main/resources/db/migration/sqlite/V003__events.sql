-- The event log: one row per lifecycle step (runner started, lease lost, task rescued, ...).
CREATE TABLE event (
  id     INTEGER PRIMARY KEY AUTOINCREMENT,
  at     INTEGER NOT NULL,
  kind   TEXT NOT NULL,
  runner TEXT,
  task   INTEGER,
  detail TEXT NOT NULL DEFAULT '{}'
);
