-- Which runs a task type keeps in the run history: 'all' (every attempt, the default) or
-- 'failures' (only the runs that did not succeed: a run that ends eventful or uneventful leaves no
-- row). See RunHistory.
ALTER TABLE task_type ADD COLUMN run_history text NOT NULL DEFAULT 'all'
  CHECK (run_history IN ('all', 'failures'));
