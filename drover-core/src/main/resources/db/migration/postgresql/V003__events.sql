-- The event log: one row per lifecycle step (runner started, lease lost, task rescued, ...).
CREATE TABLE event (
  id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at     timestamptz NOT NULL,
  kind   text NOT NULL,
  runner text,
  task   bigint,
  detail jsonb NOT NULL DEFAULT '{}'
);
