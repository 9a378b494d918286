-- Per-key concurrency limits: a task type may cap how many of its tasks with the same value of
-- one keyword argument (its concurrency_key, e.g. owner) run at once. Each task keeps that value,
-- taken from its kwargs when it is created, so claims compare plain columns.
ALTER TABLE task_type ADD COLUMN concurrency_key text;
ALTER TABLE task_type ADD COLUMN max_per_key integer CHECK (max_per_key > 0);
ALTER TABLE task_type ADD CONSTRAINT task_type_per_key_limit_whole
  CHECK ((concurrency_key IS NULL) = (max_per_key IS NULL));
ALTER TABLE task ADD COLUMN concurrency_key text;

-- Serves taskClaimPerKey: how many tasks of a type and key are leased right now.
CREATE INDEX task_leased_by_type_and_key ON task (type, concurrency_key) WHERE owner IS NOT NULL;
